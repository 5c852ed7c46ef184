<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="fr_FR">
<context>
    <name>CasesModel</name>
    <message>
        <source>Key</source>
        <translation>Clé</translation>
    </message>
    <message>
        <source>Question</source>
        <translation>Question</translation>
    </message>
    <message>
        <source>Family</source>
        <translation>Famille</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Statut</translation>
    </message>
    <message>
        <source>Behaviour</source>
        <translation>Comportement</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>Étiquettes</translation>
    </message>
    <message>
        <source>Sources</source>
        <translation>Sources</translation>
    </message>
</context>
<context>
    <name>CheatSheetDialog</name>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation>Raccourcis clavier</translation>
    </message>
</context>
<context>
    <name>CorpusSection</name>
    <message>
        <source>Search key or title…</source>
        <translation>Rechercher une clé ou un titre…</translation>
    </message>
    <message>
        <source>All statuses</source>
        <translation>Tous les statuts</translation>
    </message>
    <message>
        <source>Status:</source>
        <translation>Statut&#xa0;:</translation>
    </message>
    <message numerus="yes">
        <source>%Ln document(s)</source>
        <translation>
            <numerusform>%Ln document</numerusform>
            <numerusform>%Ln documents</numerusform>
        </translation>
    </message>
    <message>
        <source>No document matches.</source>
        <translation>Aucun document ne correspond.</translation>
    </message>
    <message>
        <source>version %1</source>
        <translation>version %1</translation>
    </message>
    <message>
        <source>supersedes %1</source>
        <translation>remplace %1</translation>
    </message>
</context>
<context>
    <name>CrashDialog</name>
    <message>
        <source>Unexpected error</source>
        <translation>Erreur inattendue</translation>
    </message>
    <message>
        <source>Something went wrong inside rag-annotator. Your work is safe: every change already made is saved in the file. Please copy the details below and send them to whoever supports the application.</source>
        <translation>Un problème est survenu dans rag-annotator. Votre travail est en sécurité&#xa0;: chaque modification déjà faite est enregistrée dans le fichier. Copiez les détails ci-dessous et envoyez-les à la personne qui assure le support de l&apos;application.</translation>
    </message>
    <message>
        <source>Copy details</source>
        <translation>Copier les détails</translation>
    </message>
</context>
<context>
    <name>DashboardSection</name>
    <message>
        <source>Cases by family</source>
        <translation>Cas par famille</translation>
    </message>
    <message>
        <source>Cases by status</source>
        <translation>Cas par statut</translation>
    </message>
    <message>
        <source>Pairs by effective label</source>
        <translation>Paires par jugement retenu</translation>
    </message>
    <message>
        <source>Claims by verdict</source>
        <translation>Affirmations par verdict</translation>
    </message>
    <message>
        <source>Pooling assumption: a document outside a case&apos;s universe (not retrieved by any run, not an expected source, never judged) counts as not relevant. Inside the universe, an unjudged pair is not &quot;not relevant&quot;: it stays unjudged until someone labels it, and assessors who disagree make a disputed pair, never resolved silently.</source>
        <translation>Hypothèse de mise en commun (pooling)&#xa0;: un document hors de l&apos;univers d&apos;un cas (retrouvé par aucune exécution, absent des sources attendues, jamais jugé) compte comme non pertinent. Dans l&apos;univers, une paire non jugée n&apos;est pas «&#xa0;non pertinente&#xa0;»&#xa0;: elle reste non jugée tant que personne ne l&apos;a étiquetée, et des annotateurs en désaccord forment une paire en désaccord, jamais tranchée en silence.</translation>
    </message>
    <message>
        <source>Counting judgments…</source>
        <translation>Décompte des jugements…</translation>
    </message>
    <message>
        <source>of which disputed</source>
        <translation>dont en désaccord</translation>
    </message>
    <message>
        <source>Pairs in the pools</source>
        <translation>Paires dans les pools</translation>
    </message>
</context>
<context>
    <name>DocumentsModel</name>
    <message>
        <source>Key</source>
        <translation>Clé</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>Titre</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Statut</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>Version</translation>
    </message>
    <message>
        <source>Owner</source>
        <translation>Propriétaire</translation>
    </message>
    <message>
        <source>Rights</source>
        <translation>Droits</translation>
    </message>
    <message>
        <source>Valid from</source>
        <translation>Valide du</translation>
    </message>
    <message>
        <source>Valid until</source>
        <translation>Valide jusqu&apos;au</translation>
    </message>
    <message>
        <source>Supersedes</source>
        <translation>Remplace</translation>
    </message>
    <message>
        <source>Length</source>
        <translation>Longueur</translation>
    </message>
</context>
<context>
    <name>GoldSetSection</name>
    <message>
        <source>Search key, question or reference answer…</source>
        <translation>Rechercher une clé, une question ou une réponse de référence…</translation>
    </message>
    <message>
        <source>All families</source>
        <translation>Toutes les familles</translation>
    </message>
    <message>
        <source>All statuses</source>
        <translation>Tous les statuts</translation>
    </message>
    <message>
        <source>Family:</source>
        <translation>Famille&#xa0;:</translation>
    </message>
    <message>
        <source>Status:</source>
        <translation>Statut&#xa0;:</translation>
    </message>
    <message numerus="yes">
        <source>%Ln case(s)</source>
        <translation>
            <numerusform>%Ln cas</numerusform>
            <numerusform>%Ln cas</numerusform>
        </translation>
    </message>
    <message>
        <source>No case matches.</source>
        <translation>Aucun cas ne correspond.</translation>
    </message>
    <message>
        <source>None</source>
        <translation>Néant</translation>
    </message>
    <message>
        <source>%1:</source>
        <translation>%1&#xa0;:</translation>
    </message>
    <message>
        <source>“%1”</source>
        <translation>«&#xa0;%1&#xa0;»</translation>
    </message>
    <message>
        <source>Family</source>
        <translation>Famille</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Statut</translation>
    </message>
    <message>
        <source>Expected behaviour</source>
        <translation>Comportement attendu</translation>
    </message>
    <message>
        <source>Difficulty</source>
        <translation>Difficulté</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>Rôle</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>Étiquettes</translation>
    </message>
    <message>
        <source>Author</source>
        <translation>Auteur</translation>
    </message>
    <message>
        <source>Variants of the question</source>
        <translation>Variantes de la question</translation>
    </message>
    <message>
        <source>Reference answer</source>
        <translation>Réponse de référence</translation>
    </message>
    <message>
        <source>Must contain</source>
        <translation>Doit contenir</translation>
    </message>
    <message>
        <source>Must never say</source>
        <translation>Ne doit jamais dire</translation>
    </message>
    <message>
        <source>Expected sources</source>
        <translation>Sources attendues</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>Notes</translation>
    </message>
</context>
<context>
    <name>HistoryModel</name>
    <message>
        <source>Time</source>
        <translation>Date et heure</translation>
    </message>
    <message>
        <source>Assessor</source>
        <translation>Annotateur</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>Action</translation>
    </message>
    <message>
        <source>Label</source>
        <translation>Libellé</translation>
    </message>
    <message>
        <source>Rows changed</source>
        <translation>Lignes modifiées</translation>
    </message>
</context>
<context>
    <name>HistorySection</name>
    <message>
        <source>Revert This Change</source>
        <translation>Annuler cette modification</translation>
    </message>
    <message>
        <source>Put back the values this change replaced, as a new change (which Undo can take back). Refused if a later change modified the same rows.</source>
        <translation>Remet les valeurs que cette modification a remplacées, sous la forme d&apos;une nouvelle modification (que «&#xa0;Annuler&#xa0;» peut défaire). Refusé si une modification ultérieure a touché les mêmes lignes.</translation>
    </message>
    <message numerus="yes">
        <source>%Ln row(s) added</source>
        <translation>
            <numerusform>%Ln ligne ajoutée</numerusform>
            <numerusform>%Ln lignes ajoutées</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln row(s) deleted</source>
        <translation>
            <numerusform>%Ln ligne supprimée</numerusform>
            <numerusform>%Ln lignes supprimées</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln change(s)</source>
        <translation>
            <numerusform>%Ln modification</numerusform>
            <numerusform>%Ln modifications</numerusform>
        </translation>
    </message>
    <message>
        <source>No change has been made to this file yet.</source>
        <translation>Aucune modification n&apos;a encore été faite dans ce fichier.</translation>
    </message>
    <message>
        <source>This change was recorded without row details (a bulk load); it cannot be reverted row by row.</source>
        <translation>Cette modification a été enregistrée sans le détail des lignes (un chargement en bloc)&#xa0;; elle ne peut pas être annulée ligne par ligne.</translation>
    </message>
    <message>
        <source>added</source>
        <translation>ajouté</translation>
    </message>
    <message>
        <source>changed</source>
        <translation>modifié</translation>
    </message>
    <message>
        <source>deleted</source>
        <translation>supprimé</translation>
    </message>
</context>
<context>
    <name>JudgeProgressModel</name>
    <message>
        <source>Key</source>
        <extracomment>Pool columns hidden while judging blind (see the module docstring).</extracomment>
        <translation>Clé</translation>
    </message>
    <message>
        <source>Question</source>
        <translation>Question</translation>
    </message>
    <message>
        <source>Pairs</source>
        <translation>Paires</translation>
    </message>
    <message>
        <source>By you</source>
        <translation>Par vous</translation>
    </message>
    <message>
        <source>Unjudged</source>
        <translation>Non jugé</translation>
    </message>
    <message>
        <source>Disputed</source>
        <translation>En désaccord</translation>
    </message>
</context>
<context>
    <name>JudgeSection</name>
    <message>
        <source>Document</source>
        <translation>Document</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>Titre</translation>
    </message>
    <message>
        <source>Your label</source>
        <translation>Votre jugement</translation>
    </message>
    <message>
        <source>Others&apos; labels</source>
        <translation>Jugements des autres</translation>
    </message>
    <message>
        <source>Effective label</source>
        <translation>Jugement retenu</translation>
    </message>
    <message>
        <source>No document has been retrieved for this case yet and it has no expected source: there is nothing to judge.</source>
        <translation>Aucun document n&apos;a encore été retrouvé pour ce cas et il n&apos;a pas de source attendue&#xa0;: il n&apos;y a rien à juger.</translation>
    </message>
    <message>
        <source>Pair %1 of %2</source>
        <translation>Paire %1 sur %2</translation>
    </message>
    <message>
        <source>%1 pairs in the pools: %2 judged by you, %3 with no agreed label.</source>
        <translation>%1 paires dans les pools&#xa0;: %2 jugées par vous, %3 sans jugement retenu.</translation>
    </message>
    <message>
        <source>Counting judgments…</source>
        <translation>Décompte des jugements…</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Copy saved to %1</source>
        <translation>Copie enregistrée dans %1</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Fichier</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>Ouvrir un fichier &amp;récent</translation>
    </message>
    <message>
        <source>Open the Sample Gold Set</source>
        <translation>Ouvrir le jeu de référence d&apos;exemple</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>&amp;Édition</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Affichage</translation>
    </message>
    <message>
        <source>&amp;Settings</source>
        <translation>&amp;Paramètres</translation>
    </message>
    <message>
        <source>&amp;Language (at next start)</source>
        <translation>&amp;Langue (au prochain démarrage)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Aide</translation>
    </message>
    <message>
        <source>Undo %1</source>
        <translation>Annuler «&#xa0;%1&#xa0;»</translation>
    </message>
    <message>
        <source>Redo %1</source>
        <translation>Rétablir «&#xa0;%1&#xa0;»</translation>
    </message>
    <message>
        <source>No recent file</source>
        <translation>Aucun fichier récent</translation>
    </message>
    <message>
        <source>New Gold Set</source>
        <translation>Nouveau jeu de référence</translation>
    </message>
    <message>
        <source>Gold sets (%1)</source>
        <translation>Jeux de référence (%1)</translation>
    </message>
    <message>
        <source>Open a Gold Set</source>
        <translation>Ouvrir un jeu de référence</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>Tous les fichiers (*)</translation>
    </message>
    <message>
        <source>Save a Copy</source>
        <translation>Enregistrer une copie</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>Langue</translation>
    </message>
    <message>
        <source>The new language will be used the next time you start rag-annotator.</source>
        <translation>La nouvelle langue sera utilisée au prochain démarrage de rag-annotator.</translation>
    </message>
    <message>
        <source>No gold set is open.</source>
        <translation>Aucun jeu de référence n&apos;est ouvert.</translation>
    </message>
    <message>
        <source>Create a new gold set, open one, or explore the sample.</source>
        <translation>Créez un nouveau jeu de référence, ouvrez-en un, ou découvrez l&apos;exemple.</translation>
    </message>
    <message>
        <source>New Gold Set…</source>
        <translation>Nouveau jeu de référence…</translation>
    </message>
    <message>
        <source>Open…</source>
        <translation>Ouvrir…</translation>
    </message>
    <message>
        <source>Open the Sample</source>
        <translation>Ouvrir l&apos;exemple</translation>
    </message>
    <message>
        <source>No file open</source>
        <translation>Aucun fichier ouvert</translation>
    </message>
    <message>
        <source>Assessor: %1</source>
        <translation>Annotateur&#xa0;: %1</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>(aucun)</translation>
    </message>
    <message numerus="yes">
        <source>%Ln case(s)</source>
        <translation>
            <numerusform>%Ln cas</numerusform>
            <numerusform>%Ln cas</numerusform>
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
            <numerusform>%Ln affirmation non vérifiée</numerusform>
            <numerusform>%Ln affirmations non vérifiées</numerusform>
        </translation>
    </message>
    <message>
        <source>counting judgments…</source>
        <translation>décompte des jugements…</translation>
    </message>
    <message>
        <source>%1 judged / %2 unjudged pairs</source>
        <translation>%1 paires jugées / %2 non jugées</translation>
    </message>
    <message>
        <source>Settings could not be saved: %1</source>
        <translation>Les paramètres n&apos;ont pas pu être enregistrés&#xa0;: %1</translation>
    </message>
</context>
<context>
    <name>RunsSection</name>
    <message>
        <source>Run</source>
        <translation>Exécution</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modèle</translation>
    </message>
    <message>
        <source>Corpus version</source>
        <translation>Version du corpus</translation>
    </message>
    <message>
        <source>Prompt version</source>
        <translation>Version du prompt</translation>
    </message>
    <message>
        <source>Index version</source>
        <translation>Version de l&apos;index</translation>
    </message>
    <message>
        <source>Cases</source>
        <translation>Cas</translation>
    </message>
    <message>
        <source>Depth</source>
        <translation>Profondeur</translation>
    </message>
    <message>
        <source>Answers</source>
        <translation>Réponses</translation>
    </message>
    <message>
        <source>Judged / retrieved pairs</source>
        <translation>Paires jugées / retrouvées</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>Notes</translation>
    </message>
    <message>
        <source>A pair counts as judged when at least one assessor gave it a label. Depth is the longest ranked list the run returned for a case.</source>
        <translation>Une paire compte comme jugée dès qu&apos;au moins un annotateur lui a donné un jugement. La profondeur est la plus longue liste classée que l&apos;exécution a renvoyée pour un cas.</translation>
    </message>
</context>
<context>
    <name>VerifySection</name>
    <message>
        <source>Run</source>
        <translation>Exécution</translation>
    </message>
    <message>
        <source>Case</source>
        <translation>Cas</translation>
    </message>
    <message>
        <source>Question</source>
        <translation>Question</translation>
    </message>
    <message>
        <source>Claims</source>
        <translation>Affirmations</translation>
    </message>
    <message>
        <source>Verified</source>
        <translation>Vérifiées</translation>
    </message>
    <message>
        <source>Supported</source>
        <translation>Étayées</translation>
    </message>
    <message>
        <source>Not supported</source>
        <translation>Non étayées</translation>
    </message>
    <message>
        <source>Contradicted</source>
        <translation>Contredites</translation>
    </message>
    <message>
        <source>#</source>
        <translation>N°</translation>
    </message>
    <message>
        <source>Claim</source>
        <translation>Affirmation</translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation>Verdict</translation>
    </message>
    <message>
        <source>Rationale</source>
        <translation>Justification</translation>
    </message>
    <message>
        <source>Evidence</source>
        <translation>Preuve</translation>
    </message>
    <message>
        <source>No run has generated answers in this gold set yet: import a run with its answers to verify them claim by claim.</source>
        <translation>Aucune exécution n&apos;a encore de réponses générées dans ce jeu de référence&#xa0;: importez une exécution avec ses réponses pour les vérifier affirmation par affirmation.</translation>
    </message>
</context>
<context>
    <name>actions</name>
    <message>
        <source>File</source>
        <translation>Fichier</translation>
    </message>
    <message>
        <source>Edit</source>
        <translation>Édition</translation>
    </message>
    <message>
        <source>Go to</source>
        <translation>Aller à</translation>
    </message>
    <message>
        <source>Judging (Judge section)</source>
        <translation>Jugement (section Juger)</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>Paramètres</translation>
    </message>
    <message>
        <source>Help</source>
        <translation>Aide</translation>
    </message>
    <message>
        <source>New Gold Set…</source>
        <translation>Nouveau jeu de référence…</translation>
    </message>
    <message>
        <source>Open…</source>
        <translation>Ouvrir…</translation>
    </message>
    <message>
        <source>Save a Copy…</source>
        <translation>Enregistrer une copie…</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Fermer</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>Quitter</translation>
    </message>
    <message>
        <source>Undo</source>
        <translation>Annuler</translation>
    </message>
    <message>
        <source>Redo</source>
        <translation>Rétablir</translation>
    </message>
    <message>
        <source>Find in This Section</source>
        <translation>Rechercher dans cette section</translation>
    </message>
    <message>
        <source>Gold Set</source>
        <translation>Jeu de référence</translation>
    </message>
    <message>
        <source>Corpus</source>
        <translation>Corpus</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>Exécutions</translation>
    </message>
    <message>
        <source>Judge</source>
        <translation>Juger</translation>
    </message>
    <message>
        <source>Verify</source>
        <translation>Vérifier</translation>
    </message>
    <message>
        <source>Dashboard</source>
        <translation>Tableau de bord</translation>
    </message>
    <message>
        <source>History</source>
        <translation>Historique</translation>
    </message>
    <message>
        <source>Relevant</source>
        <translation>Pertinent</translation>
    </message>
    <message>
        <source>Not relevant</source>
        <translation>Non pertinent</translation>
    </message>
    <message>
        <source>Relevant, grade 2 (graded scale)</source>
        <translation>Pertinent, note 2 (échelle graduée)</translation>
    </message>
    <message>
        <source>Relevant, grade 3 (graded scale)</source>
        <translation>Pertinent, note 3 (échelle graduée)</translation>
    </message>
    <message>
        <source>Back to unjudged</source>
        <translation>Revenir à non jugé</translation>
    </message>
    <message>
        <source>Next pair</source>
        <translation>Paire suivante</translation>
    </message>
    <message>
        <source>Previous pair</source>
        <translation>Paire précédente</translation>
    </message>
    <message>
        <source>Show others&apos; labels</source>
        <translation>Afficher les jugements des autres</translation>
    </message>
    <message>
        <source>System Language</source>
        <translation>Langue du système</translation>
    </message>
    <message>
        <source>Français</source>
        <translation>Français</translation>
    </message>
    <message>
        <source>English</source>
        <translation>English</translation>
    </message>
    <message>
        <source>Assessor Name…</source>
        <translation>Nom de l&apos;annotateur…</translation>
    </message>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation>Raccourcis clavier</translation>
    </message>
    <message>
        <source>About rag-annotator</source>
        <translation>À propos de rag-annotator</translation>
    </message>
</context>
<context>
    <name>dialogs</name>
    <message>
        <source>Assessor name</source>
        <translation>Nom de l&apos;annotateur</translation>
    </message>
    <message>
        <source>Your name or initials, recorded with each of your judgments and verdicts
(so several experts&apos; work can be compared and merged):</source>
        <translation>Votre nom ou vos initiales, enregistrés avec chacun de vos jugements et verdicts
(pour comparer et fusionner le travail de plusieurs experts)&#xa0;:</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>Version</translation>
    </message>
    <message>
        <source>File</source>
        <translation>Fichier</translation>
    </message>
    <message>
        <source>none</source>
        <translation>aucun</translation>
    </message>
    <message>
        <source>Schema version</source>
        <translation>Version du schéma</translation>
    </message>
    <message>
        <source>Assessor</source>
        <translation>Annotateur</translation>
    </message>
    <message>
        <source>Build, judge and verify the gold set a RAG system is evaluated against. Works offline: your files never leave this computer.</source>
        <translation>Construire, juger et vérifier le jeu de référence sur lequel un système RAG est évalué. Fonctionne hors ligne&#xa0;: vos fichiers ne quittent jamais cet ordinateur.</translation>
    </message>
    <message>
        <source>About rag-annotator</source>
        <translation>À propos de rag-annotator</translation>
    </message>
</context>
<context>
    <name>errors</name>
    <message>
        <source>rag-annotator</source>
        <translation>rag-annotator</translation>
    </message>
    <message>
        <source>This could not be done.</source>
        <translation>Cette opération n&apos;a pas pu être effectuée.</translation>
    </message>
</context>
<context>
    <name>labels</name>
    <message>
        <source>Ordinary</source>
        <translation>Ordinaire</translation>
    </message>
    <message>
        <source>Ambiguous</source>
        <translation>Ambiguë</translation>
    </message>
    <message>
        <source>Sensitive</source>
        <translation>Sensible</translation>
    </message>
    <message>
        <source>Out of scope</source>
        <translation>Hors périmètre</translation>
    </message>
    <message>
        <source>No answer in corpus</source>
        <translation>Sans réponse dans le corpus</translation>
    </message>
    <message>
        <source>Conflicting sources</source>
        <translation>Sources contradictoires</translation>
    </message>
    <message>
        <source>Outdated document</source>
        <translation>Document obsolète</translation>
    </message>
    <message>
        <source>Prompt injection / malicious source</source>
        <translation>Injection de prompt / source malveillante</translation>
    </message>
    <message>
        <source>Access restricted</source>
        <translation>Accès restreint</translation>
    </message>
    <message>
        <source>Draft</source>
        <translation>Brouillon</translation>
    </message>
    <message>
        <source>Reviewed</source>
        <translation>Relu</translation>
    </message>
    <message>
        <source>Approved</source>
        <translation>Approuvé</translation>
    </message>
    <message>
        <source>Retired</source>
        <translation>Retiré</translation>
    </message>
    <message>
        <source>Answer</source>
        <translation>Réponse</translation>
    </message>
    <message>
        <source>Abstain</source>
        <translation>Abstention</translation>
    </message>
    <message>
        <source>Escalate</source>
        <translation>Escalade</translation>
    </message>
    <message>
        <source>Easy</source>
        <translation>Facile</translation>
    </message>
    <message>
        <source>Medium</source>
        <translation>Moyenne</translation>
    </message>
    <message>
        <source>Hard</source>
        <translation>Difficile</translation>
    </message>
    <message>
        <source>Current</source>
        <translation>En vigueur</translation>
    </message>
    <message>
        <source>Outdated</source>
        <translation>Obsolète</translation>
    </message>
    <message>
        <source>Withdrawn</source>
        <translation>Retiré</translation>
    </message>
    <message>
        <source>Supported</source>
        <translation>Étayée</translation>
    </message>
    <message>
        <source>Not supported</source>
        <translation>Non étayée</translation>
    </message>
    <message>
        <source>Contradicted</source>
        <translation>Contredite</translation>
    </message>
    <message>
        <source>Unverified</source>
        <translation>Non vérifiée</translation>
    </message>
    <message>
        <source>Relevant</source>
        <translation>Pertinent</translation>
    </message>
    <message>
        <source>Not relevant</source>
        <translation>Non pertinent</translation>
    </message>
    <message>
        <source>Unjudged</source>
        <translation>Non jugé</translation>
    </message>
    <message>
        <source>Disputed</source>
        <translation>En désaccord</translation>
    </message>
    <message>
        <source>Edit gold-set settings</source>
        <translation>Modifier les paramètres du jeu de référence</translation>
    </message>
    <message>
        <source>Set the grading scale</source>
        <translation>Choisir l&apos;échelle de notation</translation>
    </message>
    <message>
        <source>New case</source>
        <translation>Nouveau cas</translation>
    </message>
    <message>
        <source>Edit case</source>
        <translation>Modification du cas</translation>
    </message>
    <message>
        <source>Delete case</source>
        <translation>Suppression du cas</translation>
    </message>
    <message>
        <source>Add expected source</source>
        <translation>Ajout d&apos;une source attendue</translation>
    </message>
    <message>
        <source>Remove expected source</source>
        <translation>Retrait d&apos;une source attendue</translation>
    </message>
    <message>
        <source>New document</source>
        <translation>Nouveau document</translation>
    </message>
    <message>
        <source>Edit document</source>
        <translation>Modification du document</translation>
    </message>
    <message>
        <source>Delete document</source>
        <translation>Suppression du document</translation>
    </message>
    <message>
        <source>New run</source>
        <translation>Nouvelle exécution</translation>
    </message>
    <message>
        <source>Edit run</source>
        <translation>Modification de l&apos;exécution</translation>
    </message>
    <message>
        <source>Delete run</source>
        <translation>Suppression de l&apos;exécution</translation>
    </message>
    <message>
        <source>Judge</source>
        <translation>Jugement</translation>
    </message>
    <message>
        <source>Verify claim</source>
        <translation>Vérification d&apos;affirmation</translation>
    </message>
    <message>
        <source>Add claim</source>
        <translation>Ajout d&apos;affirmation</translation>
    </message>
    <message>
        <source>Edit claim</source>
        <translation>Modification d&apos;affirmation</translation>
    </message>
    <message>
        <source>Delete claim</source>
        <translation>Suppression d&apos;affirmation</translation>
    </message>
    <message>
        <source>Check citation</source>
        <translation>Vérification de citation</translation>
    </message>
    <message>
        <source>Review answer</source>
        <translation>Revue de réponse</translation>
    </message>
    <message>
        <source>Load sample</source>
        <translation>Chargement de l&apos;exemple</translation>
    </message>
    <message>
        <source>Undo</source>
        <translation>Annulation</translation>
    </message>
    <message>
        <source>Redo</source>
        <translation>Rétablissement</translation>
    </message>
    <message>
        <source>Revert</source>
        <translation>Retour arrière</translation>
    </message>
    <message>
        <source>Import run</source>
        <translation>Import d’une exécution</translation>
    </message>
    <message>
        <source>Import judgments</source>
        <translation>Import de jugements</translation>
    </message>
    <message>
        <source>Merge</source>
        <translation>Fusion</translation>
    </message>
    <message>
        <source>Adjudicate</source>
        <translation>Arbitrage</translation>
    </message>
    <message>
        <source>Gold-set setting</source>
        <translation>Paramètre du jeu de référence</translation>
    </message>
    <message>
        <source>Assessor</source>
        <translation>Annotateur</translation>
    </message>
    <message>
        <source>Document</source>
        <translation>Document</translation>
    </message>
    <message>
        <source>Case</source>
        <translation>Cas</translation>
    </message>
    <message>
        <source>Expected source</source>
        <translation>Source attendue</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Exécution</translation>
    </message>
    <message>
        <source>Retrieved document</source>
        <translation>Document retrouvé</translation>
    </message>
    <message>
        <source>Citation</source>
        <translation>Citation</translation>
    </message>
    <message>
        <source>Judgment</source>
        <translation>Jugement</translation>
    </message>
    <message>
        <source>Adjudication</source>
        <translation>Arbitrage</translation>
    </message>
    <message>
        <source>Claim</source>
        <translation>Affirmation</translation>
    </message>
    <message>
        <source>Evidence</source>
        <translation>Preuve</translation>
    </message>
    <message>
        <source>Answer review</source>
        <translation>Revue de réponse</translation>
    </message>
    <message>
        <source>Release</source>
        <translation>Version publiée</translation>
    </message>
</context>
</TS>
