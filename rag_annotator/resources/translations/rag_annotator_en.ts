<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name>AgentsSection</name>
    <message numerus="yes">
        <source>%n trajectory(ies)</source>
        <translation>
            <numerusform>%n trajectory</numerusform>
            <numerusform>%n trajectories</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n to review</source>
        <translation>
            <numerusform>%n to review</numerusform>
            <numerusform>%n to review</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>BulkEditDialog</name>
    <message numerus="yes">
        <source>Change %Ln case(s)</source>
        <translation>
            <numerusform>Change %Ln case</numerusform>
            <numerusform>Change %Ln cases</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>CollectReport</name>
    <message numerus="yes">
        <source>Collected %n file(s); each one is a step Undo can take back.</source>
        <translation>
            <numerusform>Collected %n file; each one is a step Undo can take back.</numerusform>
            <numerusform>Collected %n files; each one is a step Undo can take back.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>; %n label(s) older than the master&apos;s (its own kept)</source>
        <translation>
            <numerusform>; %n label older than the master&apos;s (its own kept)</numerusform>
            <numerusform>; %n labels older than the master&apos;s (its own kept)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>CorpusSection</name>
    <message numerus="yes">
        <source>%Ln document(s)</source>
        <translation>
            <numerusform>%Ln document</numerusform>
            <numerusform>%Ln documents</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln expected source(s) to check:</source>
        <translation>
            <numerusform>%Ln expected source to check:</numerusform>
            <numerusform>%Ln expected sources to check:</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>DashboardSection</name>
    <message numerus="yes">
        <source>%n case(s)</source>
        <translation>
            <numerusform>%n case</numerusform>
            <numerusform>%n cases</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: %n case(s)</source>
        <translation>
            <numerusform>%1: %n case</numerusform>
            <numerusform>%1: %n cases</numerusform>
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
    <name>HandOutDialog</name>
    <message numerus="yes">
        <source>%n assessor(s) × %1</source>
        <translation>
            <numerusform>%n assessor × %1</numerusform>
            <numerusform>%n assessors × %1</numerusform>
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
    <name>ImportDialog</name>
    <message numerus="yes">
        <source>%n generated case(s) added to the review queue.</source>
        <translation>
            <numerusform>%n generated case added to the review queue.</numerusform>
            <numerusform>%n generated cases added to the review queue.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n case(s) imported.</source>
        <translation>
            <numerusform>%n case imported.</numerusform>
            <numerusform>%n cases imported.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n case(s) flagged as near-duplicates.</source>
        <translation>
            <numerusform>%n case flagged as a near-duplicate.</numerusform>
            <numerusform>%n cases flagged as near-duplicates.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) not imported: the list below says why.</source>
        <translation>
            <numerusform>%n file not imported: the list below says why.</numerusform>
            <numerusform>%n files not imported: the list below says why.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n case(s) expect abstention (the answer is not in the documents).</source>
        <translation>
            <numerusform>%n case expects abstention (the answer is not in the documents).</numerusform>
            <numerusform>%n cases expect abstention (the answer is not in the documents).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n expected source(s) found in the corpus.</source>
        <translation>
            <numerusform>%n expected source found in the corpus.</numerusform>
            <numerusform>%n expected sources found in the corpus.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n source text(s) matched no document and were kept in the notes.</source>
        <translation>
            <numerusform>%n source text matched no document and was kept in the notes.</numerusform>
            <numerusform>%n source texts matched no document and were kept in the notes.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>RunsSection</name>
    <message numerus="yes">
        <source>Its %n agent trajectory(ies) and their reviews go too.</source>
        <translation>
            <numerusform>Its %n agent trajectory and its review go too.</numerusform>
            <numerusform>Its %n agent trajectories and their reviews go too.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Settling</name>
    <message numerus="yes">
        <source>Settles %n undetermined value(s)</source>
        <translation>
            <numerusform>Settles %n undetermined value</numerusform>
            <numerusform>Settles %n undetermined values</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>StatusLine</name>
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
<context>
    <name>TeamPanel</name>
    <message numerus="yes">
        <source>%n timed judgment(s)</source>
        <translation>
            <numerusform>%n timed judgment</numerusform>
            <numerusform>%n timed judgments</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>VerifySection</name>
    <message numerus="yes">
        <source>%n claim(s) left to verify in the sample</source>
        <translation>
            <numerusform>%n claim left to verify in the sample</numerusform>
            <numerusform>%n claims left to verify in the sample</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n claim(s) left to verify in all runs</source>
        <translation>
            <numerusform>%n claim left to verify in all runs</numerusform>
            <numerusform>%n claims left to verify in all runs</numerusform>
        </translation>
    </message>
</context>
</TS>
