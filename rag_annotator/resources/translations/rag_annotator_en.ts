<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name>CorpusSection</name>
    <message numerus="yes">
        <source>%Ln document(s)</source>
        <translation>
            <numerusform>%Ln document</numerusform>
            <numerusform>%Ln documents</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>GoldSetSection</name>
    <message numerus="yes">
        <source>%Ln case(s)</source>
        <translation>
            <numerusform>%Ln case</numerusform>
            <numerusform>%Ln cases</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>HistorySection</name>
    <message numerus="yes">
        <source>%Ln row(s) added</source>
        <translation>
            <numerusform>%Ln row added</numerusform>
            <numerusform>%Ln rows added</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln row(s) deleted</source>
        <translation>
            <numerusform>%Ln row deleted</numerusform>
            <numerusform>%Ln rows deleted</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln change(s)</source>
        <translation>
            <numerusform>%Ln change</numerusform>
            <numerusform>%Ln changes</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message numerus="yes">
        <source>%Ln case(s)</source>
        <translation>
            <numerusform>%Ln case</numerusform>
            <numerusform>%Ln cases</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln document(s)</source>
        <translation>
            <numerusform>%Ln document</numerusform>
            <numerusform>%Ln documents</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln claim(s) unverified</source>
        <translation>
            <numerusform>%Ln claim unverified</numerusform>
            <numerusform>%Ln claims unverified</numerusform>
        </translation>
    </message>
</context>
</TS>
