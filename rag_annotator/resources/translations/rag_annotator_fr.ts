<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="fr_FR">
<context>
    <name></name>
    <message>
        <source>confirmed</source>
        <translation>confirmé</translation>
    </message>
    <message>
        <source>overruled: %1</source>
        <translation>infirmé : %1</translation>
    </message>
    <message>
        <source>Field</source>
        <translation>Champ</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>Résultat</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Valeur</translation>
    </message>
    <message>
        <source>This case has no output contract: its answer is checked claim by claim only.</source>
        <translation>Ce cas n&apos;a pas de contrat de sortie : sa réponse se vérifie affirmation par affirmation seulement.</translation>
    </message>
    <message>
        <source>answer</source>
        <translation>réponse</translation>
    </message>
    <message>
        <source>Not in the answer</source>
        <translation>Absents de la réponse</translation>
    </message>
    <message>
        <source>Not checked yet: Ctrl+Shift+V checks the structured answers.</source>
        <translation>Pas encore contrôlée : Ctrl+Maj+V contrôle les sorties structurées.</translation>
    </message>
    <message>
        <source>✗ The answer is not strict JSON</source>
        <translation>✗ La réponse n&apos;est pas du JSON strict</translation>
    </message>
    <message>
        <source>✗ The answer parses but breaks the schema</source>
        <translation>✗ La réponse se lit mais enfreint le schéma</translation>
    </message>
    <message>
        <source>✓ The answer parses and satisfies the schema</source>
        <translation>✓ La réponse se lit et respecte le schéma</translation>
    </message>
    <message>
        <source>%1 of %2 decisive fields left to review</source>
        <translation>%1 champs décisifs sur %2 restent à revoir</translation>
    </message>
    <message>
        <source>Found</source>
        <translation>Trouvé</translation>
    </message>
    <message>
        <source>Reference</source>
        <translation>Référence</translation>
    </message>
    <message>
        <source>Comparison</source>
        <translation>Comparaison</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>Pourquoi</translation>
    </message>
    <message>
        <source>retrieved</source>
        <translation>récupéré</translation>
    </message>
    <message>
        <source>not retrieved</source>
        <translation>non récupéré</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Source</translation>
    </message>
    <message>
        <source>No justifying passage recorded.</source>
        <translation>Aucun passage justificatif enregistré.</translation>
    </message>
    <message>
        <source>Justifying passage</source>
        <translation>Passage justificatif</translation>
    </message>
    <message>
        <source>the answer did not parse</source>
        <translation>la réponse ne se lit pas</translation>
    </message>
    <message>
        <source>the answer broke the schema</source>
        <translation>la réponse enfreint le schéma</translation>
    </message>
    <message>
        <source>document %1 was not retrieved</source>
        <translation>le document %1 n&apos;a pas été récupéré</translation>
    </message>
    <message>
        <source>no value at %1</source>
        <translation>aucune valeur en %1</translation>
    </message>
    <message>
        <source>the value is not found in the retrieved passages</source>
        <translation>la valeur ne figure pas dans les passages récupérés</translation>
    </message>
    <message>
        <source>expected %1</source>
        <translation>attendu : %1</translation>
    </message>
    <message>
        <source>Field %1: the check says %2.</source>
        <translation>Champ %1 : le contrôle dit %2.</translation>
    </message>
    <message>
        <source>Why do you overrule it? (Enter saves, Esc cancels)</source>
        <translation>Pourquoi l&apos;infirmez-vous ? (Entrée enregistre, Échap annule)</translation>
    </message>
    <message>
        <source>Overrule the field&apos;s outcome</source>
        <translation>Infirmer le résultat du champ</translation>
    </message>
    <message>
        <source>This field was not checked (the answer did not parse or broke the schema): there is no outcome to overrule.</source>
        <translation>Ce champ n&apos;a pas été contrôlé (la réponse ne se lit pas ou enfreint le schéma) : il n&apos;y a pas de résultat à infirmer.</translation>
    </message>
</context>
<context>
    <name>AgentsPanel</name>
    <message>
        <source>Agents: task success, path and invariants per family</source>
        <translation>Agents&#xa0;: succès de la tâche, chemin et invariants par famille</translation>
    </message>
    <message>
        <source>Violation rate per invariant (broken / checked)</source>
        <translation>Taux de violation par invariant (violé / vérifié)</translation>
    </message>
    <message>
        <source>Trajectories</source>
        <translation>Trajectoires</translation>
    </message>
    <message>
        <source>Task success</source>
        <translation>Succès de la tâche</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Échecs</translation>
    </message>
    <message>
        <source>Path acceptable</source>
        <translation>Chemin acceptable</translation>
    </message>
    <message>
        <source>Path not acceptable</source>
        <translation>Chemin non acceptable</translation>
    </message>
    <message>
        <source>Both</source>
        <translation>Les deux</translation>
    </message>
    <message>
        <source>Undecided</source>
        <translation>Indécis</translation>
    </message>
    <message>
        <source>Mean steps</source>
        <translation>Étapes (moy.)</translation>
    </message>
    <message>
        <source>Mean tokens</source>
        <translation>Tokens (moy.)</translation>
    </message>
    <message>
        <source>Mean seconds</source>
        <translation>Secondes (moy.)</translation>
    </message>
    <message>
        <source>Cost per success</source>
        <translation>Coût par succès</translation>
    </message>
    <message>
        <source>Overruled</source>
        <translation>Infirmés</translation>
    </message>
    <message>
        <source>trajectories that broke it / trajectories where it was checked</source>
        <translation>trajectoires qui l&apos;ont violé / trajectoires où il a été vérifié</translation>
    </message>
    <message>
        <source>the trajectory gives no figure for this budget: not counted</source>
        <translation>la trajectoire ne donne pas ce chiffre&#xa0;: non compté</translation>
    </message>
    <message>
        <source>Violation rate</source>
        <translation>Taux de violation</translation>
    </message>
    <message>
        <source>Broken</source>
        <translation>Violé</translation>
    </message>
    <message>
        <source>Checked</source>
        <translation>Vérifié</translation>
    </message>
    <message>
        <source>Unknown</source>
        <translation>Inconnu</translation>
    </message>
    <message>
        <source>%1 trajectories. A reviewer&apos;s mark overrides the automatic check; a trajectory that can be decided neither way (no expected state or no final state, not marked) is undecided and left out of the rate. Means are over the trajectories that carry the figure; cost per success = total cost / successful tasks. Retired cases are left out (%2). — means not computable.</source>
        <translation>%1 trajectoires. La marque d&apos;un relecteur l&apos;emporte sur le contrôle automatique&#xa0;; une trajectoire qu&apos;on ne peut trancher (ni état attendu ni état final, non marquée) est indécise et hors du taux. Les moyennes portent sur les trajectoires qui donnent le chiffre&#xa0;; coût par succès = coût total / tâches réussies. Les cas retirés sont exclus (%2). — signifie non calculable.</translation>
    </message>
    <message>
        <source>Success rate per trial: %1. pass^k (all k trials of a case succeed): %2.</source>
        <translation>Taux de réussite par essai : %1. pass^k (les k essais d’un cas réussissent) : %2.</translation>
    </message>
    <message>
        <source>successful tasks / trajectories with a verdict</source>
        <translation>tâches réussies / trajectoires avec un verdict</translation>
    </message>
    <message>
        <source>acceptable paths / trajectories with a verdict</source>
        <translation>chemins acceptables / trajectoires avec un verdict</translation>
    </message>
    <message>
        <source>success with an acceptable path</source>
        <translation>succès avec un chemin acceptable</translation>
    </message>
    <message>
        <source>task success cannot be decided yet: mark it in the review</source>
        <translation>le succès ne peut pas encore être tranché&#xa0;: marquez-le dans la relecture</translation>
    </message>
    <message>
        <source>over the trajectories that give tokens</source>
        <translation>sur les trajectoires qui donnent les tokens</translation>
    </message>
    <message>
        <source>over the trajectories that give seconds</source>
        <translation>sur les trajectoires qui donnent les secondes</translation>
    </message>
    <message>
        <source>total cost / successful tasks</source>
        <translation>coût total / tâches réussies</translation>
    </message>
    <message>
        <source>automatic verdicts a review overruled: success / path</source>
        <translation>verdicts automatiques infirmés par une relecture&#xa0;: succès / chemin</translation>
    </message>
    <message>
        <source>forbidden: %1</source>
        <translation>interdit&#xa0;: %1</translation>
    </message>
    <message>
        <source>required: %1</source>
        <translation>requis&#xa0;: %1</translation>
    </message>
    <message>
        <source>step budget</source>
        <translation>budget d&apos;étapes</translation>
    </message>
    <message>
        <source>token budget</source>
        <translation>budget de tokens</translation>
    </message>
    <message>
        <source>time budget</source>
        <translation>budget de temps</translation>
    </message>
    <message>
        <source>cost budget</source>
        <translation>budget de coût</translation>
    </message>
</context>
<context>
    <name>AgentsSection</name>
    <message>
        <source>yes</source>
        <extracomment>Background roles (ui/look/colours.py; same as the Verify section&apos;s claims). Model role holding the texts of the checks a step broke (tests, tooltips). lupdate finds ``translate(&quot;AgentsSection&quot;, &quot;literal&quot;)`` calls.</extracomment>
        <translation>oui</translation>
    </message>
    <message>
        <source>no</source>
        <translation>non</translation>
    </message>
    <message>
        <source>forbidden tool %1</source>
        <translation>outil interdit %1</translation>
    </message>
    <message>
        <source>%2 before %1</source>
        <translation>%2 avant %1</translation>
    </message>
    <message>
        <source>past the budget of %1 steps</source>
        <translation>au-delà du budget de %1 étapes</translation>
    </message>
    <message>
        <source>forbidden tool %1 called at step %2</source>
        <translation>outil interdit %1 appelé à l&apos;étape %2</translation>
    </message>
    <message>
        <source>forbidden tool %1 never called</source>
        <translation>outil interdit %1 jamais appelé</translation>
    </message>
    <message>
        <source>required tool %1 never called</source>
        <translation>outil requis %1 jamais appelé</translation>
    </message>
    <message>
        <source>required tool %1 called</source>
        <translation>outil requis %1 appelé</translation>
    </message>
    <message>
        <source>%1 before %2: kept</source>
        <translation>%1 avant %2&#xa0;: respecté</translation>
    </message>
    <message>
        <source>%2 before %1 (step %3)</source>
        <translation>%2 avant %1 (étape %3)</translation>
    </message>
    <message>
        <source>%1 before %2: %3 never called</source>
        <translation>%1 avant %2&#xa0;: %3 jamais appelé</translation>
    </message>
    <message>
        <source>steps</source>
        <translation>étapes</translation>
    </message>
    <message>
        <source>tokens</source>
        <translation>tokens</translation>
    </message>
    <message>
        <source>seconds</source>
        <translation>secondes</translation>
    </message>
    <message>
        <source>cost</source>
        <translation>coût</translation>
    </message>
    <message>
        <source>%1 budget %2: not given by the trajectory</source>
        <translation>budget %1 %2&#xa0;: non donné par la trajectoire</translation>
    </message>
    <message>
        <source>%1 budget %2: kept (%3)</source>
        <translation>budget %1 %2&#xa0;: respecté (%3)</translation>
    </message>
    <message>
        <source>%1 budget %2 exceeded at step %4 (%3)</source>
        <translation>budget %1 %2 dépassé à l&apos;étape %4 (%3)</translation>
    </message>
    <message>
        <source>%1 budget %2 exceeded (%3)</source>
        <translation>budget %1 %2 dépassé (%3)</translation>
    </message>
    <message>
        <source>held</source>
        <translation>respecté</translation>
    </message>
    <message>
        <source>broken</source>
        <translation>violé</translation>
    </message>
    <message>
        <source>cannot tell</source>
        <translation>indéterminé</translation>
    </message>
    <message>
        <source>equal</source>
        <translation>égal</translation>
    </message>
    <message>
        <source>differs</source>
        <translation>diffère</translation>
    </message>
    <message>
        <source>missing</source>
        <translation>manquant</translation>
    </message>
    <message>
        <source>Task success (Y / N)</source>
        <translation>Succès de la tâche (Y / N)</translation>
    </message>
    <message>
        <source>Path acceptable (A / X)</source>
        <translation>Chemin acceptable (A / X)</translation>
    </message>
    <message>
        <source>automatic: %1</source>
        <translation>automatique&#xa0;: %1</translation>
    </message>
    <message>
        <source>not reviewed</source>
        <translation>non relu</translation>
    </message>
    <message>
        <source>overruled: %1</source>
        <translation>infirmé&#xa0;: %1</translation>
    </message>
    <message>
        <source>confirmed: %1</source>
        <translation>confirmé&#xa0;: %1</translation>
    </message>
    <message>
        <source>Reason:</source>
        <translation>Raison&#xa0;:</translation>
    </message>
    <message>
        <source>Reviewed by %1, %2</source>
        <translation>Relu par %1, %2</translation>
    </message>
    <message>
        <source>Note (E):</source>
        <translation>Note (E)&#xa0;:</translation>
    </message>
    <message>
        <source>Budgets:</source>
        <translation>Budgets&#xa0;:</translation>
    </message>
    <message>
        <source>To review only (T)</source>
        <translation>À relire seulement (T)</translation>
    </message>
    <message>
        <source>Case key…</source>
        <translation>Clé du cas…</translation>
    </message>
    <message>
        <source>Enter: accept the automatic checks and go on · Y / N: success · A / X: path · U: clear · E: note · J / K: next / previous · Shift+J: next to review · H / L: steps · T: to review only · R: run</source>
        <translation>Entrée&#xa0;: accepter les contrôles automatiques et continuer · Y / N&#xa0;: succès · A / X&#xa0;: chemin · U&#xa0;: effacer · E&#xa0;: note · J / K&#xa0;: suivante / précédente · Maj+J&#xa0;: suivante à relire · H / L&#xa0;: étapes · T&#xa0;: à relire seulement · R&#xa0;: exécution</translation>
    </message>
    <message>
        <source>Run:</source>
        <translation>Exécution&#xa0;:</translation>
    </message>
    <message>
        <source>Review</source>
        <translation>Relecture</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>Étapes</translation>
    </message>
    <message>
        <source>Checks</source>
        <translation>Contrôles</translation>
    </message>
    <message>
        <source>Final state</source>
        <translation>État final</translation>
    </message>
    <message>
        <source>Final answer</source>
        <translation>Réponse finale</translation>
    </message>
    <message>
        <source>All runs</source>
        <translation>Toutes les exécutions</translation>
    </message>
    <message>
        <source>No agent case in this gold set yet.

Add one in the Gold set section (Kind: Agent), with its expected final state and the invariants of an acceptable path, then import the agent&apos;s trajectories: Runs → Import a Run…, or rag-annotator import FILE trajectories SOURCE --run NAME.</source>
        <translation>Pas encore de cas agent dans ce jeu de référence.

Ajoutez-en un dans la section Jeu de référence (Nature&#xa0;: Agent), avec son état final attendu et les invariants d&apos;un chemin acceptable, puis importez les trajectoires de l&apos;agent&#xa0;: Exécutions → Importer une exécution…, ou rag-annotator import FICHIER trajectories SOURCE --run NOM.</translation>
    </message>
    <message>
        <source>No trajectory to review yet.

Import the agent&apos;s trajectories: Runs → Import a Run…, or rag-annotator import FILE trajectories SOURCE --run NAME.</source>
        <translation>Pas encore de trajectoire à relire.

Importez les trajectoires de l&apos;agent&#xa0;: Exécutions → Importer une exécution…, ou rag-annotator import FICHIER trajectories SOURCE --run NOM.</translation>
    </message>
    <message numerus="yes">
        <source>%n trajectory(ies)</source>
        <translation>
            <numerusform>%n trajectoire</numerusform>
            <numerusform>%n trajectoires</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n to review</source>
        <translation>
            <numerusform>%n à relire</numerusform>
            <numerusform>%n à relire</numerusform>
        </translation>
    </message>
    <message>
        <source>Every trajectory of this list is reviewed.</source>
        <translation>Toutes les trajectoires de cette liste sont relues.</translation>
    </message>
    <message>
        <source>No trajectory to review.</source>
        <translation>Aucune trajectoire à relire.</translation>
    </message>
    <message>
        <source>trajectory %1 of %2</source>
        <translation>trajectoire %1 sur %2</translation>
    </message>
    <message>
        <source>Request:</source>
        <extracomment>Trajectories kept ready (the next to review, the next and previous in the list).</extracomment>
        <translation>Demande&#xa0;:</translation>
    </message>
    <message>
        <source>The trajectory gives no final state.</source>
        <translation>La trajectoire ne donne pas d&apos;état final.</translation>
    </message>
    <message>
        <source>H / L: previous / next step, with its arguments and result in full.</source>
        <translation>H / L&#xa0;: étape précédente / suivante, avec ses arguments et son résultat en entier.</translation>
    </message>
    <message>
        <source>Step %1</source>
        <translation>Étape %1</translation>
    </message>
    <message>
        <source>Arguments:</source>
        <translation>Arguments&#xa0;:</translation>
    </message>
    <message>
        <source>Result:</source>
        <translation>Résultat&#xa0;:</translation>
    </message>
    <message>
        <source>The checks cannot tell this verdict: mark task success with Y or N, the path with A or X.</source>
        <translation>Les contrôles ne peuvent pas trancher ce verdict&#xa0;: marquez le succès avec Y ou N, le chemin avec A ou X.</translation>
    </message>
    <message>
        <source>Accepted; one verdict is still to mark (Y / N for success, A / X for the path).</source>
        <translation>Accepté&#xa0;; un verdict reste à marquer (Y / N pour le succès, A / X pour le chemin).</translation>
    </message>
    <message>
        <source>Task success: you mark it &lt;b&gt;%1&lt;/b&gt;; the final state says &lt;b&gt;%2&lt;/b&gt;.</source>
        <translation>Succès de la tâche&#xa0;: vous marquez &lt;b&gt;%1&lt;/b&gt;&#xa0;; l&apos;état final dit &lt;b&gt;%2&lt;/b&gt;.</translation>
    </message>
    <message>
        <source>Path acceptable: you mark it &lt;b&gt;%1&lt;/b&gt;; the checks say &lt;b&gt;%2&lt;/b&gt;.</source>
        <translation>Chemin acceptable&#xa0;: vous marquez &lt;b&gt;%1&lt;/b&gt;&#xa0;; les contrôles disent &lt;b&gt;%2&lt;/b&gt;.</translation>
    </message>
    <message>
        <source>Why do you overrule the automatic check? (Enter saves, Esc cancels)</source>
        <translation>Pourquoi infirmez-vous le contrôle automatique&#xa0;? (Entrée enregistre, Échap annule)</translation>
    </message>
    <message>
        <source>Overrule the automatic check</source>
        <translation>Infirmer le contrôle automatique</translation>
    </message>
    <message>
        <source>Note on the trajectory</source>
        <translation>Note sur la trajectoire</translation>
    </message>
    <message>
        <source>Note on %1 (Enter saves, Esc cancels):</source>
        <translation>Note sur %1 (Entrée enregistre, Échap annule)&#xa0;:</translation>
    </message>
</context>
<context>
    <name>Appearance</name>
    <message>
        <source>&amp;Appearance</source>
        <translation>&amp;Apparence</translation>
    </message>
</context>
<context>
    <name>AssignmentMode</name>
    <message>
        <source>Next to do</source>
        <translation>Suivante à faire</translation>
    </message>
    <message>
        <source>Previous to do</source>
        <translation>Précédente à faire</translation>
    </message>
    <message>
        <source>This assignment holds no pair.</source>
        <translation>Cette affectation ne contient aucune paire.</translation>
    </message>
    <message>
        <source>Reference answer:</source>
        <translation>Réponse de référence :</translation>
    </message>
    <message>
        <source>(none written yet)</source>
        <translation>(pas encore rédigée)</translation>
    </message>
    <message>
        <source>can’t judge: %1</source>
        <translation>impossible à juger : %1</translation>
    </message>
    <message>
        <source>your label: %1</source>
        <translation>votre étiquette : %1</translation>
    </message>
    <message>
        <source>Pair %1 of %2 · %3</source>
        <translation>Paire %1 sur %2 · %3</translation>
    </message>
    <message>
        <source>Your assignment: %1 / %2</source>
        <translation>Votre affectation : %1 / %2</translation>
    </message>
    <message>
        <source> (of which %1 can’t judge)</source>
        <translation> (dont impossibles à juger&#xa0;: %1)</translation>
    </message>
    <message>
        <source>finished: hand your file back to the lead</source>
        <translation>terminé : rendez votre fichier au responsable</translation>
    </message>
</context>
<context>
    <name>BulkEditDialog</name>
    <message numerus="yes">
        <source>Change %Ln case(s)</source>
        <translation>
            <numerusform>Modifier %Ln cas</numerusform>
            <numerusform>Modifier %Ln cas</numerusform>
        </translation>
    </message>
    <message>
        <source>(unchanged)</source>
        <translation>(inchangé)</translation>
    </message>
    <message>
        <source>tags to add, comma-separated</source>
        <translation>étiquettes à ajouter, séparées par des virgules</translation>
    </message>
    <message>
        <source>tags to remove, comma-separated</source>
        <translation>étiquettes à retirer, séparées par des virgules</translation>
    </message>
    <message>
        <source>Family</source>
        <translation>Famille</translation>
    </message>
    <message>
        <source>Add tags</source>
        <translation>Ajouter des étiquettes</translation>
    </message>
    <message>
        <source>Remove tags</source>
        <translation>Retirer des étiquettes</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Statut</translation>
    </message>
    <message>
        <source>Each change is one step in the history (one undo).</source>
        <translation>Chaque modification est une étape de l&apos;historique (une annulation).</translation>
    </message>
</context>
<context>
    <name>CalibrationDialog</name>
    <message>
        <source>Agreement with an automatic judge</source>
        <translation>Accord avec un juge automatique</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Exécution</translation>
    </message>
    <message>
        <source>Case</source>
        <translation>Cas</translation>
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
        <source>You</source>
        <translation>Vous</translation>
    </message>
    <message>
        <source>Judge</source>
        <translation>Juge</translation>
    </message>
    <message>
        <source>Claims where you and the judge disagree (Enter goes to the claim):</source>
        <translation>Affirmations sur lesquelles vous et le juge divergez (Entrée ouvre l&apos;affirmation)&#xa0;:</translation>
    </message>
    <message>
        <source>not defined</source>
        <translation>non défini</translation>
    </message>
    <message>
        <source>Rows: your verdict; columns: the judge’s.</source>
        <translation>Lignes&#xa0;: votre verdict&#xa0;; colonnes&#xa0;: celui du juge.</translation>
    </message>
    <message>
        <source>Claims compared: %1 · agreement: %2 · Cohen’s κ: %3</source>
        <translation>Affirmations comparées&#xa0;: %1 · accord&#xa0;: %2 · κ de Cohen&#xa0;: %3</translation>
    </message>
    <message>
        <source>Answers compared: %1 · faithfulness, judge %2, yours %3 · mean difference %4</source>
        <translation>Réponses comparées : %1 · fidélité, juge %2, vous %3 · écart moyen %4</translation>
    </message>
</context>
<context>
    <name>CantJudgeDialog</name>
    <message>
        <source>Can’t judge this pair</source>
        <extracomment>What assignment mode (the expert&apos;s queue, no setup, blind) does not offer. Operations whose changes the panel already applied in memory when it made them.</extracomment>
        <translation>Impossible de juger cette paire</translation>
    </message>
    <message>
        <source>Why can’t you judge this pair? The pair stays unjudged and your reason goes back to the lead with your file.</source>
        <translation>Pourquoi ne pouvez-vous pas juger cette paire ? Elle reste non jugée et votre raison revient au responsable avec votre fichier.</translation>
    </message>
    <message>
        <source>Outside my expertise</source>
        <translation>Hors de mon domaine</translation>
    </message>
    <message>
        <source>The document is unreadable or empty</source>
        <translation>Le document est illisible ou vide</translation>
    </message>
    <message>
        <source>The question is unclear</source>
        <translation>La question n’est pas claire</translation>
    </message>
    <message>
        <source>The document is in another language</source>
        <translation>Le document est dans une autre langue</translation>
    </message>
</context>
<context>
    <name>CaseEditor</name>
    <message>
        <source>comma-separated topics</source>
        <extracomment>The agent field a RAG field&apos;s shortcut reaches on an agent case (that field is hidden).</extracomment>
        <translation>thèmes séparés par des virgules</translation>
    </message>
    <message>
        <source>the role that may or may not see the sources</source>
        <translation>le rôle qui peut ou non voir les sources</translation>
    </message>
    <message>
        <source>one key = value per line, e.g. ticket.category = changement_offre</source>
        <translation>une paire clé = valeur par ligne, p. ex. ticket.category = changement_offre</translation>
    </message>
    <message>
        <source>tool names, comma-separated</source>
        <translation>noms d&apos;outils, séparés par des virgules</translation>
    </message>
    <message>
        <source>one pair per line, e.g. verifier_identite &lt; modifier_offre</source>
        <translation>une paire par ligne, p. ex. verifier_identite &lt; modifier_offre</translation>
    </message>
    <message>
        <source>steps</source>
        <translation>étapes</translation>
    </message>
    <message>
        <source>tokens</source>
        <translation>tokens</translation>
    </message>
    <message>
        <source>seconds</source>
        <translation>secondes</translation>
    </message>
    <message>
        <source>cost</source>
        <translation>coût</translation>
    </message>
    <message>
        <source>none</source>
        <translation>aucun</translation>
    </message>
    <message>
        <source>Document</source>
        <translation>Document</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>Titre</translation>
    </message>
    <message>
        <source>Passage</source>
        <translation>Passage</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>Note</translation>
    </message>
    <message>
        <source>Add source…</source>
        <translation>Ajouter une source…</translation>
    </message>
    <message>
        <source>Remove source</source>
        <translation>Retirer la source</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Clé</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Nature</translation>
    </message>
    <message>
        <source>Question</source>
        <translation>Question</translation>
    </message>
    <message>
        <source>Variants (one per line)</source>
        <translation>Variantes (une par ligne)</translation>
    </message>
    <message>
        <source>Reference answer</source>
        <translation>Réponse de référence</translation>
    </message>
    <message>
        <source>Must contain (one per line)</source>
        <translation>Doit contenir (un élément par ligne)</translation>
    </message>
    <message>
        <source>Must never say (one per line)</source>
        <translation>Ne doit jamais dire (un élément par ligne)</translation>
    </message>
    <message>
        <source>Expected behaviour</source>
        <translation>Comportement attendu</translation>
    </message>
    <message>
        <source>Expected final state (key = value per line)</source>
        <translation>État final attendu (clé = valeur par ligne)</translation>
    </message>
    <message>
        <source>Forbidden tools</source>
        <translation>Outils interdits</translation>
    </message>
    <message>
        <source>Required tools</source>
        <translation>Outils requis</translation>
    </message>
    <message>
        <source>Tool order (before &lt; after, one pair per line)</source>
        <translation>Ordre des outils (avant &lt; après, une paire par ligne)</translation>
    </message>
    <message>
        <source>Budgets (empty: none)</source>
        <translation>Budgets (vide&#xa0;: aucun)</translation>
    </message>
    <message>
        <source>Family</source>
        <translation>Famille</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>Étiquettes</translation>
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
        <source>Status</source>
        <translation>Statut</translation>
    </message>
    <message>
        <source>Author</source>
        <translation>Auteur</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>Notes</translation>
    </message>
    <message>
        <source>Expected sources</source>
        <translation>Sources attendues</translation>
    </message>
    <message>
        <source>Approved in the frozen release “%1”: read-only until a new draft version starts (Releases…).</source>
        <translation>Approuvé dans la version publiée figée «&#xa0;%1&#xa0;»&#xa0;: lecture seule jusqu&apos;au début d&apos;une nouvelle version brouillon (Versions publiées…).</translation>
    </message>
    <message>
        <source>User&apos;s request</source>
        <translation>Demande de l&apos;utilisateur</translation>
    </message>
    <message>
        <source>To check</source>
        <translation>À vérifier</translation>
    </message>
    <message>
        <source>p. %1 — %2</source>
        <translation>p. %1 — %2</translation>
    </message>
    <message>
        <source>Note on the expected source</source>
        <translation>Note sur la source attendue</translation>
    </message>
    <message>
        <source>Note on %1 (Enter saves, Esc cancels):</source>
        <translation>Note sur %1 (Entrée enregistre, Échap annule)&#xa0;:</translation>
    </message>
    <message>
        <source>The case has no question.</source>
        <extracomment>How a case without agent fields stores them (every RAG case): shown empty, without importing the agent code for the window&apos;s first paint.</extracomment>
        <translation>Le cas n&apos;a pas de question.</translation>
    </message>
    <message>
        <source>No reference answer: write one, or expect abstention if nothing answers it.</source>
        <translation>Pas de réponse de référence&#xa0;: rédigez-en une, ou attendez une abstention si rien n&apos;y répond.</translation>
    </message>
    <message>
        <source>No answer in the corpus: the expected behaviour should be “abstain”.</source>
        <translation>Sans réponse dans le corpus&#xa0;: le comportement attendu devrait être «&#xa0;Abstention&#xa0;».</translation>
    </message>
    <message>
        <source>No answer in the corpus: the case should have no expected source.</source>
        <translation>Sans réponse dans le corpus&#xa0;: le cas ne devrait avoir aucune source attendue.</translation>
    </message>
    <message>
        <source>Conflicting sources: name at least two expected sources.</source>
        <translation>Sources contradictoires&#xa0;: indiquez au moins deux sources attendues.</translation>
    </message>
    <message>
        <source>Conflicting sources: write a note on the conflict.</source>
        <translation>Sources contradictoires&#xa0;: rédigez une note sur la contradiction.</translation>
    </message>
    <message>
        <source>Outdated document: name the outdated (or superseded) document as a source.</source>
        <translation>Document obsolète&#xa0;: indiquez le document obsolète (ou remplacé) comme source.</translation>
    </message>
    <message>
        <source>Outdated document: name the current document as a source too.</source>
        <translation>Document obsolète&#xa0;: indiquez aussi le document en vigueur comme source.</translation>
    </message>
    <message>
        <source>Access restricted: give the role that may or may not see the documents.</source>
        <translation>Accès restreint&#xa0;: indiquez le rôle qui peut ou non voir les documents.</translation>
    </message>
    <message>
        <source>The agent case has no user request.</source>
        <translation>Le cas agent n&apos;a pas de demande de l&apos;utilisateur.</translation>
    </message>
    <message>
        <source>No expected final state: task success cannot be checked automatically; give &apos;key = value&apos; pairs.</source>
        <translation>Pas d&apos;état final attendu&#xa0;: le succès de la tâche ne peut pas être contrôlé automatiquement&#xa0;; donnez des paires « clé = valeur ».</translation>
    </message>
    <message>
        <source>No invariant (forbidden or required tool, order, step budget): the path cannot be checked automatically.</source>
        <translation>Aucun invariant (outil interdit ou requis, ordre, budget d&apos;étapes)&#xa0;: le chemin ne peut pas être contrôlé automatiquement.</translation>
    </message>
    <message>
        <source>Prompt injection: identify the injected passage (a source with a passage or a note).</source>
        <translation>Injection de prompt&#xa0;: identifiez le passage injecté (une source avec un passage ou une note).</translation>
    </message>
</context>
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
    <name>ChecksModel</name>
    <message>
        <source>Check</source>
        <translation>Contrôle</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>Résultat</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>Étapes</translation>
    </message>
</context>
<context>
    <name>CollectReport</name>
    <message numerus="yes">
        <source>Collected %n file(s); each one is a step Undo can take back.</source>
        <translation>
            <numerusform>%n fichier collecté&#xa0;; chaque fichier est une étape qu&apos;Annuler peut défaire.</numerusform>
            <numerusform>%n fichiers collectés&#xa0;; chaque fichier est une étape qu&apos;Annuler peut défaire.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>; %n label(s) older than the master&apos;s (its own kept)</source>
        <translation>
            <numerusform>; %n étiquette plus ancienne que celle du fichier maître (la sienne gardée)</numerusform>
            <numerusform>; %n étiquettes plus anciennes que celles du fichier maître (les siennes gardées)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ContractDialog</name>
    <message>
        <source>Output contract of case %1</source>
        <translation>Contrat de sortie du cas %1</translation>
    </message>
    <message>
        <source>The JSON Schema (2020-12) a structured answer must satisfy, and its decisive fields: &lt;b&gt;pointer&lt;/b&gt; (e.g. /start_date), &lt;b&gt;reference&lt;/b&gt; value, &lt;b&gt;comparison&lt;/b&gt; (exact, number with a &lt;b&gt;tolerance&lt;/b&gt;, date, text, one_of), the &lt;b&gt;document&lt;/b&gt; key and &lt;b&gt;passage&lt;/b&gt; that justify it.</source>
        <translation>Le schéma JSON (2020-12) que doit respecter une sortie structurée, et ses champs décisifs : &lt;b&gt;pointer&lt;/b&gt; (p. ex. /date_debut), valeur de &lt;b&gt;reference&lt;/b&gt;, &lt;b&gt;comparison&lt;/b&gt; (exact, number avec une &lt;b&gt;tolerance&lt;/b&gt;, date, text, one_of), la clé du &lt;b&gt;document&lt;/b&gt; et le &lt;b&gt;passage&lt;/b&gt; qui la justifient.</translation>
    </message>
    <message>
        <source>Remove the contract</source>
        <translation>Supprimer le contrat</translation>
    </message>
    <message>
        <source>Not JSON: %1</source>
        <translation>Pas du JSON : %1</translation>
    </message>
    <message>
        <source>No document %1 in the corpus.</source>
        <translation>Aucun document %1 dans le corpus.</translation>
    </message>
    <message>
        <source>The contract is valid.</source>
        <translation>Le contrat est valide.</translation>
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
        <source>Find in the text…</source>
        <translation>Rechercher dans le texte…</translation>
    </message>
    <message>
        <source>Documents</source>
        <translation>Documents</translation>
    </message>
    <message>
        <source>Rights matrix</source>
        <translation>Matrice des droits</translation>
    </message>
    <message>
        <source>groups that may read it, comma-separated</source>
        <translation>groupes autorisés à le lire, séparés par des virgules</translation>
    </message>
    <message>
        <source>key of the older version</source>
        <translation>clé de l&apos;ancienne version</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>Titre</translation>
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
        <source>Status</source>
        <translation>Statut</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>Version</translation>
    </message>
    <message>
        <source>Supersedes</source>
        <translation>Remplace</translation>
    </message>
    <message>
        <source>Content hash</source>
        <translation>Empreinte du contenu</translation>
    </message>
    <message>
        <source>Cited by</source>
        <translation>Cité par</translation>
    </message>
    <message>
        <source>Import corpus…</source>
        <translation>Importer un corpus…</translation>
    </message>
    <message>
        <source>Import a folder…</source>
        <translation>Importer un dossier…</translation>
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
        <source>outdated</source>
        <translation>obsolète</translation>
    </message>
    <message>
        <source>withdrawn</source>
        <translation>retiré</translation>
    </message>
    <message>
        <source>not in the corpus</source>
        <translation>absent du corpus</translation>
    </message>
    <message>
        <source>case %1 cites %2 (%3)</source>
        <translation>le cas %1 cite %2 (%3)</translation>
    </message>
    <message>
        <source>; and %1 more</source>
        <translation>&#xa0;; et %1 autres</translation>
    </message>
    <message numerus="yes">
        <source>%Ln expected source(s) to check:</source>
        <translation>
            <numerusform>%Ln source attendue à vérifier&#xa0;:</numerusform>
            <numerusform>%Ln sources attendues à vérifier&#xa0;:</numerusform>
        </translation>
    </message>
    <message>
        <source>version %1</source>
        <translation>version %1</translation>
    </message>
    <message>
        <source>supersedes %1</source>
        <translation>remplace %1</translation>
    </message>
    <message>
        <source>There is no document “%1”; give the key of the older version.</source>
        <translation>Il n&apos;y a pas de document «&#xa0;%1&#xa0;»&#xa0;; indiquez la clé de l&apos;ancienne version.</translation>
    </message>
    <message>
        <source>not found</source>
        <translation>introuvable</translation>
    </message>
</context>
<context>
    <name>CoverageDialog</name>
    <message>
        <source>Coverage: tags × families</source>
        <translation>Couverture&#xa0;: étiquettes × familles</translation>
    </message>
    <message>
        <source>Count retired cases</source>
        <translation>Compter les cas retirés</translation>
    </message>
    <message>
        <source>Empty cells are red, cells with a single case orange. Enter or double-click shows the cases of a cell.</source>
        <translation>Les cellules vides sont en rouge, celles qui ne contiennent qu&apos;un seul cas en orange. Entrée ou un double-clic affiche les cas d&apos;une cellule.</translation>
    </message>
    <message>
        <source>(no tag)</source>
        <translation>(sans étiquette)</translation>
    </message>
    <message>
        <source>Cases</source>
        <translation>Cas</translation>
    </message>
    <message>
        <source>Total</source>
        <translation>Total</translation>
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
        <source>What a retrieved document nobody has judged yet is worth (Alt+P switches)</source>
        <translation>Ce que vaut un document retrouvé que personne n&apos;a encore jugé (Alt+P pour changer)</translation>
    </message>
    <message>
        <source>All families</source>
        <translation>Toutes les familles</translation>
    </message>
    <message>
        <source> ms</source>
        <translation> ms</translation>
    </message>
    <message>
        <source>&amp;Run:</source>
        <translation>&amp;Exécution&#xa0;:</translation>
    </message>
    <message>
        <source>&amp;Unjudged documents:</source>
        <translation>Documents &amp;non jugés&#xa0;:</translation>
    </message>
    <message>
        <source>&amp;Against:</source>
        <translation>&amp;Comparer à&#xa0;:</translation>
    </message>
    <message>
        <source>Latency &amp;target:</source>
        <translation>&amp;Latence cible&#xa0;:</translation>
    </message>
    <message>
        <source>Computing the figures of a large file…</source>
        <translation>Calcul des chiffres d&apos;un gros fichier…</translation>
    </message>
    <message>
        <source>&amp;Measure for bars and distribution:</source>
        <extracomment>Over which topics the means run (the same set for every measure), the rule folded away.</extracomment>
        <translation>&amp;Mesure pour les barres et la distribution&#xa0;:</translation>
    </message>
    <message>
        <source>Answers per family: tested / produced / validated</source>
        <translation>Réponses par famille&#xa0;: testées / produites / validées</translation>
    </message>
    <message>
        <source>Where it failed (cases per family)</source>
        <translation>Où le système échoue (cas par famille)</translation>
    </message>
    <message>
        <source>Latency and cost</source>
        <translation>Latence et coût</translation>
    </message>
    <message>
        <source>&amp;Family:</source>
        <translation>&amp;Famille&#xa0;:</translation>
    </message>
    <message>
        <source>Run against run (wins / losses / ties per case)</source>
        <translation>Exécution contre exécution (victoires / défaites / égalités par cas)</translation>
    </message>
    <message>
        <source>Judge next (strict): the unjudged pairs whose label settles the most undetermined values</source>
        <translation>À juger ensuite (strict)&#xa0;: les paires non jugées dont le jugement détermine le plus de valeurs indéterminées</translation>
    </message>
    <message>
        <source>This run holds agent trajectories only: no retrieved documents and no answers, so there are no retrieval or answer figures; its agent figures are below.</source>
        <translation>Cette exécution ne contient que des trajectoires d&apos;agent&#xa0;: ni documents retrouvés ni réponses, donc pas de mesures de recherche ni de réponse&#xa0;; ses mesures d&apos;agent sont ci-dessous.</translation>
    </message>
    <message>
        <source>Agreement between assessors on relevance (relevant or not)</source>
        <translation>Accord entre annotateurs sur la pertinence (pertinent ou non)</translation>
    </message>
    <message>
        <source>No run yet: import one (Runs section) to see its metrics here.</source>
        <translation>Aucune exécution pour l&apos;instant&#xa0;: importez-en une (section Exécutions) pour voir ses métriques ici.</translation>
    </message>
    <message>
        <source>Click a figure to list the cases behind it.</source>
        <extracomment>Above this many retrieved rows (all runs), the figures are computed on a worker thread: their intervals bootstrap the cases 10,000 times, about 0.5 ms per case (1 s for 2,000 cases of 10 documents, measured), so only a file of a couple of hundred cases stays on the GUI thread (the sample: 270 rows, ~60 ms). Above this many cases, the pairs to judge next are not ranked here (that costs up to ~25 ms per case; the Judge section ranks them for the case at hand). How many pairs to judge next the dashboard lists (under strict). The measures the Dashboard computes: the usual ones, and whether a right document is among the first ten (a headline figure, the manager&apos;s page&apos;s too). Tables whose changes can move a figure of the dashboard. The panels a judgment followed case by case moves (the rest keep their figures). The panels a review of answers moves. After a judgment followed case by case, the drift across runs (every run&apos;s figures again) waits for this long a pause in the changes. The shown run&apos;s figures and what updating them needs; None until first built. Follow a judgment case by case (False: build every figure anew at each change, as before; tests/bench/bench_dashboard_refresh.py times both).</extracomment>
        <translation>Cliquez sur un chiffre pour lister les cas qui le composent.</translation>
    </message>
    <message>
        <source>The level of every interval shown [low–high]</source>
        <translation>Le niveau de tous les intervalles affichés [bas–haut]</translation>
    </message>
    <message>
        <source>&amp;Intervals:</source>
        <translation>&amp;Intervalles :</translation>
    </message>
    <message>
        <source>count as not relevant (trec)</source>
        <translation>comptent comme non pertinents (trec)</translation>
    </message>
    <message>
        <source>dropped from the ranking (judged-only)</source>
        <translation>retirés du classement (judged-only)</translation>
    </message>
    <message>
        <source>must not matter (strict)</source>
        <translation>ne doivent rien changer (strict)</translation>
    </message>
    <message>
        <source>Policy trec: a retrieved document nobody has judged counts as not relevant, as trec_eval does, so a figure may still move as judging goes on.</source>
        <translation>Politique trec&#xa0;: un document retrouvé que personne n&apos;a jugé compte comme non pertinent, comme dans trec_eval&#xa0;; un chiffre peut donc encore bouger à mesure que le jugement avance.</translation>
    </message>
    <message>
        <source>Policy judged-only: documents nobody has judged are removed from each ranking before computing (trec_eval -J).</source>
        <translation>Politique judged-only&#xa0;: les documents que personne n&apos;a jugés sont retirés de chaque classement avant le calcul (trec_eval -J).</translation>
    </message>
    <message>
        <source>Policy strict: a value is shown only if it is the same whatever the unjudged documents turn out to be; otherwise it is undetermined and the mean leaves that case out.</source>
        <translation>Politique strict&#xa0;: une valeur n&apos;est affichée que si elle reste la même quel que soit le jugement futur des documents non jugés&#xa0;; sinon elle est indéterminée et la moyenne exclut ce cas.</translation>
    </message>
    <message>
        <source>Unjudged documents: </source>
        <translation>Documents non jugés : </translation>
    </message>
    <message>
        <source>Access</source>
        <translation>Accès</translation>
    </message>
    <message>
        <source>Retrieval</source>
        <translation>Recherche</translation>
    </message>
    <message>
        <source>Abstention</source>
        <translation>Abstention</translation>
    </message>
    <message>
        <source>Generation</source>
        <translation>Génération</translation>
    </message>
    <message>
        <source>Filter retrieval by the user&apos;s rights before generation.</source>
        <translation>Filtrez la recherche selon les droits de l&apos;utilisateur avant la génération.</translation>
    </message>
    <message>
        <source>Fix the corpus, chunking or query before the model.</source>
        <translation>Corrigez le corpus, le découpage ou la requête avant le modèle.</translation>
    </message>
    <message>
        <source>Withdraw or mark outdated versions so the current one is retrieved.</source>
        <translation>Retirez les versions obsolètes ou marquez-les comme telles, pour que la version en vigueur soit retrouvée.</translation>
    </message>
    <message>
        <source>Adjust the confidence thresholds: it must abstain here.</source>
        <translation>Ajustez les seuils de confiance&#xa0;: le système doit s&apos;abstenir ici.</translation>
    </message>
    <message>
        <source>Adjust the confidence thresholds: it refused an answerable question.</source>
        <translation>Ajustez les seuils de confiance&#xa0;: le système a refusé une question à laquelle il pouvait répondre.</translation>
    </message>
    <message>
        <source>Define the escalation path for sensitive cases.</source>
        <translation>Définissez la procédure d&apos;escalade pour les cas sensibles.</translation>
    </message>
    <message>
        <source>Block or rephrase answers that are not supported.</source>
        <translation>Bloquez ou reformulez les réponses non étayées.</translation>
    </message>
    <message>
        <source>(no comparison)</source>
        <translation>(aucune comparaison)</translation>
    </message>
    <message>
        <source>%1 of %2 cases count in the mean; the others are undetermined, not defined or not judged.</source>
        <translation>%1 cas sur %2 comptent dans la moyenne ; les autres sont indéterminés, non définis ou non jugés.</translation>
    </message>
    <message>
        <source>not judged</source>
        <translation>non jugés</translation>
    </message>
    <message>
        <source>undetermined</source>
        <translation>indéterminé</translation>
    </message>
    <message>
        <source>not defined</source>
        <translation>non défini</translation>
    </message>
    <message>
        <source>Distribution of %1 over the %2 of its mean</source>
        <translation>Répartition de %1 sur les %2 de sa moyenne</translation>
    </message>
    <message>
        <source>; %1 not in the mean (grey)</source>
        <translation> ; %1 hors de la moyenne (en gris)</translation>
    </message>
    <message>
        <source>Means over all %1 judged cases; the %2 the run does not cover score 0.</source>
        <translation>Moyennes sur les %1 cas jugés ; les %2 que l&apos;exécution ne couvre pas valent 0.</translation>
    </message>
    <message>
        <source>As trec_eval -c does.</source>
        <translation>Comme le fait trec_eval -c.</translation>
    </message>
    <message>
        <source>Means over the %1 judged cases the run covers.</source>
        <translation>Moyennes sur les %1 cas jugés que l&apos;exécution couvre.</translation>
    </message>
    <message>
        <source>These are trec_eval&apos;s topics.</source>
        <translation>Ce sont les « topics » de trec_eval.</translation>
    </message>
    <message>
        <source>%1 cases without any judgment are left out.</source>
        <translation>%1 cas sans aucun jugement sont laissés de côté.</translation>
    </message>
    <message>
        <source>A value not defined (no relevant document) counts 0, as in trec_eval.</source>
        <translation>Une valeur non définie (aucun document pertinent) compte 0, comme dans trec_eval.</translation>
    </message>
    <message>
        <source>Only the cases where a value is published count.</source>
        <translation>Seuls les cas où une valeur est publiée comptent.</translation>
    </message>
    <message>
        <source>Relevant means grade %1 or more (nDCG keeps the grades).</source>
        <translation>Pertinent signifie note %1 ou plus (nDCG garde les notes).</translation>
    </message>
    <message numerus="yes">
        <source>%n case(s)</source>
        <translation>
            <numerusform>%n cas</numerusform>
            <numerusform>%n cas</numerusform>
        </translation>
    </message>
    <message>
        <source>Tested</source>
        <translation>Testées</translation>
    </message>
    <message>
        <source>Produced</source>
        <translation>Produites</translation>
    </message>
    <message>
        <source>Validated</source>
        <translation>Validées</translation>
    </message>
    <message>
        <source>Quality</source>
        <translation>Qualité</translation>
    </message>
    <message>
        <source>Coverage</source>
        <translation>Couverture</translation>
    </message>
    <message>
        <source>Success</source>
        <translation>Succès</translation>
    </message>
    <message>
        <source>Unreviewed</source>
        <translation>Non revues</translation>
    </message>
    <message>
        <source>Faithfulness</source>
        <translation>Fidélité</translation>
    </message>
    <message>
        <source>Bars: ✓ validated (green) + ✗ not validated (red) + ∅ no answer (grey) = tested; the whisker is the interval of success. Quality = validated / produced, coverage = produced / tested, success = validated / tested; a zero denominator is not computable (—). Claims: %1 contradicted, %2 unsupported of the verified; must-contain recall %3.</source>
        <translation>Barres : ✓ validées (vert) + ✗ non validées (rouge) + ∅ sans réponse (gris) = testées ; la moustache est l’intervalle du succès. Qualité = validées / produites, couverture = produites / testées, succès = validées / testées ; un dénominateur nul n’est pas calculable (—). Affirmations : %1 contredites, %2 non étayées parmi les vérifiées ; rappel des éléments attendus %3.</translation>
    </message>
    <message>
        <source>validated / produced</source>
        <translation>validées / produites</translation>
    </message>
    <message>
        <source>produced / tested</source>
        <translation>produites / testées</translation>
    </message>
    <message>
        <source>validated / tested</source>
        <translation>validées / testées</translation>
    </message>
    <message>
        <source>expecting an answer, review not complete: not counted as tested (%1 more have no answer from this run at all)</source>
        <translation>réponse attendue, revue incomplète&#xa0;: non comptés comme testés (%1 autres n&apos;ont aucune réponse de cette exécution)</translation>
    </message>
    <message>
        <source>cases expecting an abstention or escalation, reviewed</source>
        <translation>cas attendant une abstention ou une escalade, revus</translation>
    </message>
    <message>
        <source>mean of supported / verified claims per answer</source>
        <translation>moyenne des affirmations étayées / vérifiées par réponse</translation>
    </message>
    <message>
        <source>First action:</source>
        <translation>Première action&#xa0;:</translation>
    </message>
    <message>
        <source>No failure found at the top %1.</source>
        <translation>Aucun échec trouvé dans les %1 premiers résultats.</translation>
    </message>
    <message>
        <source>This run&apos;s answers carry no latency or cost.</source>
        <translation>Les réponses de cette exécution n&apos;indiquent ni latence ni coût.</translation>
    </message>
    <message>
        <source>Median %1, p90 %2 over %3 timed answers; %4 under the target of %5 ms. Cost per validated answer: %6.</source>
        <translation>Médiane %1, p90 %2 sur %3 réponses chronométrées&#xa0;; %4 sous la cible de %5 ms. Coût par réponse validée&#xa0;: %6.</translation>
    </message>
    <message>
        <source>not computable</source>
        <translation>non calculable</translation>
    </message>
    <message>
        <source>Choose another run under “Against” to compare it with this one, case by case.</source>
        <translation>Choisissez une autre exécution dans «&#xa0;Comparer à&#xa0;» pour la comparer à celle-ci, cas par cas.</translation>
    </message>
    <message>
        <source>Wins</source>
        <translation>Victoires</translation>
    </message>
    <message>
        <source>Losses</source>
        <translation>Défaites</translation>
    </message>
    <message>
        <source>Ties</source>
        <translation>Égalités</translation>
    </message>
    <message>
        <source>Not comparable</source>
        <translation>Non comparables</translation>
    </message>
    <message>
        <source>Mean, this run</source>
        <translation>Moyenne, cette exécution</translation>
    </message>
    <message>
        <source>Mean, other run</source>
        <translation>Moyenne, autre exécution</translation>
    </message>
    <message>
        <source>Difference</source>
        <translation>Différence</translation>
    </message>
    <message>
        <source>Paired difference [range]</source>
        <translation>Différence appariée [intervalle]</translation>
    </message>
    <message>
        <source>p (Holm)</source>
        <translation>p (Holm)</translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation>Verdict</translation>
    </message>
    <message>
        <source>▲ better</source>
        <translation>▲ meilleur</translation>
    </message>
    <message>
        <source>▼ worse</source>
        <translation>▼ moins bon</translation>
    </message>
    <message>
        <source>no detectable difference with %1 cases</source>
        <translation>aucune différence décelable avec %1 cas</translation>
    </message>
    <message>
        <source>paired t-test p = %1; randomization p = %2</source>
        <translation>test t apparié : p = %1 ; test de randomisation : p = %2</translation>
    </message>
    <message>
        <source>not published for one run or both</source>
        <translation>non publiée pour l&apos;une des exécutions ou les deux</translation>
    </message>
    <message>
        <source>%1 against %2: a win is a case where %1 scores higher. Means are over the cases both runs publish. Cases only in %1: %3; only in %2: %4.</source>
        <translation>%1 contre %2&#xa0;: une victoire est un cas où %1 obtient un meilleur score. Les moyennes portent sur les cas que les deux exécutions publient. Cas seulement dans %1&#xa0;: %3&#xa0;; seulement dans %2&#xa0;: %4.</translation>
    </message>
    <message>
        <source>Nothing: no value of this run is undetermined</source>
        <translation>Rien&#xa0;: aucune valeur de cette exécution n&apos;est indéterminée</translation>
    </message>
    <message>
        <source>Not ranked here for %1 cases (too long); the Judge section ranks the pairs of the case at hand.</source>
        <translation>Pas de classement ici pour %1 cas (trop long)&#xa0;; la section Juger classe les paires du cas en cours.</translation>
    </message>
    <message>
        <source>Case</source>
        <translation>Cas</translation>
    </message>
    <message>
        <source>Document</source>
        <translation>Document</translation>
    </message>
    <message>
        <source>Settles</source>
        <translation>Détermine</translation>
    </message>
    <message>
        <source>Measures</source>
        <translation>Mesures</translation>
    </message>
    <message>
        <source>values that become known whatever the label</source>
        <translation>valeurs qui deviennent connues quel que soit le jugement</translation>
    </message>
    <message>
        <source>narrows only</source>
        <translation>resserre seulement</translation>
    </message>
    <message>
        <source>Too many judgments to recount here at every change: &apos;rag-annotator info FILE --json&apos; and the Excel summary give the agreement.</source>
        <translation>Trop de jugements pour tout recompter ici à chaque modification : « rag-annotator info FICHIER --json » et la synthèse Excel donnent l&apos;accord.</translation>
    </message>
    <message>
        <source>No pair has been judged by two assessors yet: nothing to compare. Merge a colleague&apos;s file (File → Merge a Colleague&apos;s File…) to measure agreement.</source>
        <translation>Aucune paire n&apos;a encore été jugée par deux annotateurs : rien à comparer. Fusionnez le fichier d&apos;un collègue (Fichier → Fusionner le fichier d&apos;un collègue…) pour mesurer l&apos;accord.</translation>
    </message>
    <message>
        <source>only with exactly two assessors</source>
        <translation>seulement avec exactement deux annotateurs</translation>
    </message>
    <message>
        <source>Assessors</source>
        <translation>Annotateurs</translation>
    </message>
    <message>
        <source>Pairs judged by 2+</source>
        <translation>Paires jugées par 2+</translation>
    </message>
    <message>
        <source>Agreement</source>
        <translation>Accord</translation>
    </message>
    <message>
        <source>Cohen&apos;s κ</source>
        <translation>κ de Cohen</translation>
    </message>
    <message>
        <source>Krippendorff&apos;s α</source>
        <translation>α de Krippendorff</translation>
    </message>
    <message>
        <source>Pairs judged by at least two assessors; a dispute (relevant vs not relevant) waits in the Judge section&apos;s adjudication queue (D). — means not defined.</source>
        <translation>Paires jugées par au moins deux annotateurs ; un désaccord (pertinent contre non pertinent) attend dans la file d&apos;arbitrage de la section Juger (D). — signifie non défini.</translation>
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
    <message>
        <source>validated</source>
        <translation>validé</translation>
    </message>
    <message>
        <source>not validated</source>
        <translation>non validé</translation>
    </message>
    <message>
        <source>no answer</source>
        <translation>sans réponse</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n case(s)</source>
        <translation>
            <numerusform>%1&#xa0;: %n cas</numerusform>
            <numerusform>%1&#xa0;: %n cas</numerusform>
        </translation>
    </message>
    <message>
        <source>Drift across runs (in the order they were made)</source>
        <extracomment>The headline figures the panel shows: (figure, is a share). The version fields shown, in order. The mark of a significant regression: a sign and a word, readable without colour.</extracomment>
        <translation>Dérive d&apos;une exécution à l&apos;autre (dans l&apos;ordre où elles ont été faites)</translation>
    </message>
    <message>
        <source>Change = this run minus the previous run, and minus the baseline. A regression (▼) is a measure worse by a paired test over the cases both runs answered (Holm-corrected randomization test), against the previous run or an earlier baseline; select a run to see what changed and which cases flipped.</source>
        <translation>Écart = cette exécution moins la précédente, et moins la référence. Une régression (▼) est une mesure moins bonne selon un test apparié sur les cas que les deux exécutions ont traités (test de randomisation corrigé par Holm), par rapport à l&apos;exécution précédente ou à une référence antérieure ; sélectionnez une exécution pour voir ce qui a changé et quels cas ont basculé.</translation>
    </message>
    <message>
        <source>Computing the drift across runs…</source>
        <translation>Calcul de la dérive entre exécutions…</translation>
    </message>
    <message>
        <source>&amp;Baseline:</source>
        <translation>&amp;Référence :</translation>
    </message>
    <message>
        <source>Famil&amp;y:</source>
        <translation>Famill&amp;e :</translation>
    </message>
    <message>
        <source>(first run)</source>
        <translation>(première exécution)</translation>
    </message>
    <message>
        <source>Task success</source>
        <translation>Succès de la tâche</translation>
    </message>
    <message>
        <source>Δ %1 vs previous</source>
        <translation>Δ %1 / précédente</translation>
    </message>
    <message>
        <source>Δ %1 vs baseline</source>
        <translation>Δ %1 / référence</translation>
    </message>
    <message>
        <source>Regression</source>
        <translation>Régression</translation>
    </message>
    <message>
        <source>(baseline)</source>
        <translation>(référence)</translation>
    </message>
    <message>
        <source>Select a run to see its regressions.</source>
        <translation>Sélectionnez une exécution pour voir ses régressions.</translation>
    </message>
    <message>
        <source>over %1 cases</source>
        <translation>sur %1 cas</translation>
    </message>
    <message>
        <source>regression: %1</source>
        <translation>régression : %1</translation>
    </message>
    <message>
        <source>%1: no significant regression.</source>
        <translation>%1 : aucune régression significative.</translation>
    </message>
    <message>
        <source> points</source>
        <translation> points</translation>
    </message>
    <message>
        <source>%1 (change %2, p (Holm) %3)</source>
        <translation>%1 (écart %2, p (Holm) %3)</translation>
    </message>
    <message>
        <source>%1 worse than %2 over %3 cases: %4.</source>
        <translation>%1 moins bon que %2 sur %3 cas : %4.</translation>
    </message>
    <message>
        <source>Version fields changed: %1.</source>
        <translation>Champs de version modifiés : %1.</translation>
    </message>
    <message>
        <source>none</source>
        <translation>aucun</translation>
    </message>
    <message>
        <source>Validated → not validated: %1.</source>
        <translation>Validé → non validé : %1.</translation>
    </message>
    <message>
        <source>Relevant found → lost: %1.</source>
        <translation>Pertinent trouvé → perdu : %1.</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modèle</translation>
    </message>
    <message>
        <source>Corpus</source>
        <translation>Corpus</translation>
    </message>
    <message>
        <source>Index</source>
        <translation>Index</translation>
    </message>
    <message>
        <source>Prompt</source>
        <translation>Prompt</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>Notes</translation>
    </message>
    <message>
        <source>How many cases are enough</source>
        <translation>Combien de cas suffisent</translation>
    </message>
    <message>
        <source>&amp;Wanted interval width:</source>
        <translation>&amp;Largeur d&apos;intervalle voulue :</translation>
    </message>
    <message>
        <source>%1: cases</source>
        <translation>%1 : cas</translation>
    </message>
    <message>
        <source>%1: ± today</source>
        <translation>%1 : ± aujourd&apos;hui</translation>
    </message>
    <message>
        <source>%1: more cases</source>
        <translation>%1 : cas en plus</translation>
    </message>
    <message>
        <source>± today: half the width of the %1 % interval, in points. More cases: how many cases to add to the family (at today&apos;s rate and spread) for the interval to be narrower than ±%2 points; 0: it already is; —: cannot be told yet (no case, or fewer than two values for a mean).</source>
        <translation>± aujourd&apos;hui : la moitié de la largeur de l&apos;intervalle à %1 %, en points. Cas en plus : combien de cas ajouter à la famille (au taux et à la dispersion d&apos;aujourd&apos;hui) pour que l&apos;intervalle soit plus étroit que ±%2 points ; 0 : c&apos;est déjà le cas ; — : impossible à dire pour l&apos;instant (aucun cas, ou moins de deux valeurs pour une moyenne).</translation>
    </message>
    <message>
        <source>%1 cases in all would do</source>
        <translation>%1 cas en tout suffiraient</translation>
    </message>
    <message>
        <source>Retrieved</source>
        <translation>Récupéré</translation>
    </message>
    <message>
        <source>Passed to the model</source>
        <translation>Transmis au modèle</translation>
    </message>
    <message>
        <source>Cited</source>
        <translation>Cité</translation>
    </message>
    <message>
        <source>Out-of-scope exposure (critical, per identity)</source>
        <translation>Exposition hors périmètre (critique, par identité)</translation>
    </message>
    <message>
        <source>Groups</source>
        <translation>Groupes</translation>
    </message>
    <message>
        <source>Cases checked</source>
        <translation>Cas vérifiés</translation>
    </message>
    <message>
        <source>Cases exposed</source>
        <translation>Cas exposés</translation>
    </message>
    <message>
        <source>Wrong answer</source>
        <translation>Réponse erronée</translation>
    </message>
    <message>
        <source>Missing evidence</source>
        <translation>Absence de preuve</translation>
    </message>
    <message>
        <source>Out-of-scope exposure</source>
        <translation>Exposition hors périmètre</translation>
    </message>
    <message>
        <source>Cases</source>
        <translation>Cas</translation>
    </message>
    <message>
        <source>%1 exposure(s) in this run. A forbidden document retrieved, passed to the model (the top %2 of an answered case) or cited is a critical error: it is counted here, never averaged into quality. The three outcomes are kept apart: a right answer built on a forbidden document is exposed, not wrong.</source>
        <translation>%1 exposition(s) dans cette exécution. Un document interdit récupéré, transmis au modèle (les %2 premiers d&apos;un cas répondu) ou cité est une erreur critique : il est compté ici, jamais moyenné dans la qualité. Les trois issues restent séparées : une réponse juste bâtie sur un document interdit est exposée, pas erronée.</translation>
    </message>
    <message>
        <source>Answers</source>
        <extracomment>The diagnosis columns, in seed 003&apos;s order of the step to fix.</extracomment>
        <translation>Réponses</translation>
    </message>
    <message>
        <source>Parse rate</source>
        <translation>Taux de lecture</translation>
    </message>
    <message>
        <source>Schema-valid rate</source>
        <translation>Taux conforme au schéma</translation>
    </message>
    <message>
        <source>Contract broken</source>
        <translation>Contrat cassé</translation>
    </message>
    <message>
        <source>Document missing</source>
        <translation>Document manquant</translation>
    </message>
    <message>
        <source>Right document, wrong field</source>
        <translation>Bon document, champ faux</translation>
    </message>
    <message>
        <source>All fields right</source>
        <translation>Tous les champs justes</translation>
    </message>
    <message>
        <source>Structured answers (output contracts)</source>
        <translation>Sorties structurées (contrats de sortie)</translation>
    </message>
    <message>
        <source>Accuracy = fields right once reviewed / checks executed. A check not executed (the answer did not parse or broke the schema) is counted apart, never as passed.</source>
        <translation>Exactitude = champs justes après revue / contrôles exécutés. Un contrôle non exécuté (la réponse ne se lit pas ou enfreint le schéma) est compté à part, jamais comme réussi.</translation>
    </message>
    <message>
        <source>Accuracy</source>
        <translation>Exactitude</translation>
    </message>
    <message>
        <source>Right</source>
        <translation>Justes</translation>
    </message>
    <message>
        <source>Executed</source>
        <translation>Exécutés</translation>
    </message>
    <message>
        <source>Not executed</source>
        <translation>Non exécutés</translation>
    </message>
    <message>
        <source>Overruled</source>
        <translation>Infirmés</translation>
    </message>
    <message>
        <source>Click to list the cases behind it</source>
        <translation>Cliquez pour lister les cas qui le composent</translation>
    </message>
    <message>
        <source>Headline figures</source>
        <translation>Chiffres clés</translation>
    </message>
    <message>
        <source>Headline figures of %1</source>
        <translation>Chiffres clés de %1</translation>
    </message>
    <message>
        <source>The figures of the manager&apos;s page (File → Export: PDF or Excel), with the range where the true figure lies given how many cases count.</source>
        <translation>Les chiffres de la page du responsable (Fichier → Exporter : PDF ou Excel), avec la fourchette où se situe le vrai chiffre compte tenu du nombre de cas comptés.</translation>
    </message>
    <message>
        <source>No headline figure yet: review answers (Verify) or judge documents (Judge).</source>
        <translation>Pas encore de chiffre clé : relisez des réponses (Vérifier) ou jugez des documents (Juger).</translation>
    </message>
</context>
<context>
    <name>DocumentViewer</name>
    <message>
        <source>This document has no pages: it came as one text.</source>
        <translation>Ce document n’a pas de pages : il est venu d’un seul texte.</translation>
    </message>
    <message>
        <source>Only a PDF document whose file is kept can be shown as its pages; this one is shown as its text.</source>
        <translation>Seul un document PDF dont le fichier est conservé peut s’afficher en pages ; celui-ci s’affiche en texte.</translation>
    </message>
    <message>
        <source>This PDF cannot be shown as pages (its file is damaged or missing); its text is shown.</source>
        <translation>Ce PDF ne peut pas s’afficher en pages (son fichier est abîmé ou absent) ; son texte est affiché.</translation>
    </message>
    <message>
        <source>Slide</source>
        <translation>Diapositive</translation>
    </message>
    <message>
        <source>Page</source>
        <translation>Page</translation>
    </message>
    <message>
        <source>passage on page %1</source>
        <translation>passage en page %1</translation>
    </message>
    <message>
        <source>passage on pages %1–%2</source>
        <translation>passage en pages %1 à %2</translation>
    </message>
    <message>
        <source>selected: page %1, characters %2–%3</source>
        <translation>sélection : page %1, caractères %2–%3</translation>
    </message>
    <message>
        <source>this page&apos;s text differs from the stored text: select in the text (F7)</source>
        <translation>le texte de cette page diffère du texte enregistré : sélectionnez dans le texte (F7)</translation>
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
    <name>DrawSampleDialog</name>
    <message>
        <source>Draw a Review Sample</source>
        <translation>Tirer un échantillon de revue</translation>
    </message>
    <message>
        <source>Claims</source>
        <translation>Affirmations</translation>
    </message>
    <message>
        <source>Answers</source>
        <translation>Réponses</translation>
    </message>
    <message>
        <source>Relevance (case, document)</source>
        <translation>Pertinence (cas, document)</translation>
    </message>
    <message>
        <source>Size:</source>
        <translation>Taille :</translation>
    </message>
    <message>
        <source>Target half-width (±):</source>
        <translation>Demi-largeur visée (±) :</translation>
    </message>
    <message>
        <source>Draw</source>
        <translation>Tirer</translation>
    </message>
    <message>
        <source>Level:</source>
        <translation>Niveau :</translation>
    </message>
    <message>
        <source>Judge:</source>
        <translation>Juge :</translation>
    </message>
    <message>
        <source>Seed:</source>
        <translation>Graine :</translation>
    </message>
    <message>
        <source>No automatic judge in this file for this level: import one&apos;s verdicts first.</source>
        <translation>Aucun juge automatique dans ce fichier pour ce niveau : importez d’abord ses verdicts.</translation>
    </message>
    <message>
        <source>%1 labelled nothing at this level.</source>
        <translation>%1 n’a rien étiqueté à ce niveau.</translation>
    </message>
    <message>
        <source>%1 of the %2 units the judge labelled will be drawn.</source>
        <translation>%1 des %2 unités étiquetées par le juge seront tirées.</translation>
    </message>
    <message>
        <source>Proposed size: %1 (for ±%2 at 95%). </source>
        <translation>Taille proposée : %1 (pour ±%2 à 95 %). </translation>
    </message>
    <message>
        <source>The judge labelled only %1 units: give a size between 1 and %1.</source>
        <translation>Le juge n’a étiqueté que %1 unités : donnez une taille entre 1 et %1.</translation>
    </message>
    <message>
        <source>Drawing declares %1 an automatic judge: its labels no longer count as a human&apos;s (undoable).</source>
        <translation>Le tirage déclare %1 juge automatique : ses étiquettes ne comptent plus comme celles d’un humain (annulable).</translation>
    </message>
</context>
<context>
    <name>EmptyHint</name>
    <message>
        <source>Import a Run…</source>
        <translation>Importer une exécution…</translation>
    </message>
    <message>
        <source>Nothing matches the search or the filters: clear them to see everything.</source>
        <translation>Rien ne correspond à la recherche ou aux filtres : videz-les pour tout voir.</translation>
    </message>
    <message>
        <source>Import the Questions…</source>
        <translation>Importer les questions…</translation>
    </message>
    <message>
        <source>No case yet. A case is one question with its reference answer and expected sources. Import the experts&apos; spreadsheet of questions, or write a case by hand (Ctrl+Shift+N).</source>
        <extracomment>Section index (navigation order) → the hints of its lists.</extracomment>
        <translation>Aucun cas pour l&apos;instant. Un cas, c&apos;est une question avec sa réponse de référence et ses sources attendues. Importez le tableur des questions des experts, ou écrivez un cas à la main (Ctrl+Maj+N).</translation>
    </message>
    <message>
        <source>No document yet. Import the documents the assistant searches: a BEIR corpus.jsonl, a CSV or Excel sheet, or a folder of PDF, Word, OpenDocument, HTML, PowerPoint, RTF, Markdown or text files.</source>
        <translation>Aucun document pour l’instant. Importez les documents dans lesquels l’assistant cherche : un corpus.jsonl BEIR, une feuille CSV ou Excel, ou un dossier de fichiers PDF, Word, OpenDocument, HTML, PowerPoint, RTF, Markdown ou texte.</translation>
    </message>
    <message>
        <source>Import the Documents…</source>
        <translation>Importer les documents…</translation>
    </message>
    <message>
        <source>Import a Folder…</source>
        <translation>Importer un dossier…</translation>
    </message>
    <message>
        <source>No run yet. A run is what one version of the RAG system retrieved and answered for each question. Import one (TREC run, JSONL, Ragas, agent trajectories) to judge and verify it.</source>
        <translation>Aucune exécution pour l&apos;instant. Une exécution, c&apos;est ce qu&apos;une version du système RAG a trouvé et répondu pour chaque question. Importez-en une (run TREC, JSONL, Ragas, trajectoires d&apos;agent) pour la juger et la vérifier.</translation>
    </message>
    <message>
        <source>No case to judge yet. Import the spreadsheet of questions first, then a run: its retrieved documents become the pairs to judge.</source>
        <translation>Aucun cas à juger pour l&apos;instant. Importez d&apos;abord le tableur des questions, puis une exécution : les documents qu&apos;elle a trouvés deviennent les paires à juger.</translation>
    </message>
    <message>
        <source>No document to judge here yet. The pairs to judge are the documents the runs retrieved for each question, and its expected sources: import a run, or widen the pool (Choose the Pool…).</source>
        <translation>Aucun document à juger ici pour l&apos;instant. Les paires à juger sont les documents trouvés par les exécutions pour chaque question, et ses sources attendues : importez une exécution, ou élargissez le pool (Choisir le pool…).</translation>
    </message>
    <message>
        <source>No answer to verify yet. The claims of a run&apos;s generated answers are checked here: import a run that holds answers (JSONL or Ragas).</source>
        <translation>Aucune réponse à vérifier pour l&apos;instant. Les affirmations des réponses générées par une exécution se contrôlent ici : importez une exécution qui contient des réponses (JSONL ou Ragas).</translation>
    </message>
    <message>
        <source>This answer has no claim yet: select words in the answer and add one (Ctrl+Shift+A).</source>
        <translation>Cette réponse n&apos;a pas encore d&apos;affirmation : sélectionnez des mots dans la réponse et ajoutez-en une (Ctrl+Maj+A).</translation>
    </message>
    <message>
        <source>Nothing has changed yet. Every edit, import and undo will be listed here — who, when, old → new — and can be reverted.</source>
        <translation>Rien n&apos;a encore changé. Chaque modification, import et annulation sera listé ici — qui, quand, ancien → nouveau — et pourra être annulé.</translation>
    </message>
</context>
<context>
    <name>Explained</name>
    <message>
        <source>Hide the explanation</source>
        <translation>Masquer l&apos;explication</translation>
    </message>
    <message>
        <source>Read the guide page on the figures</source>
        <translation>Lire la page du guide sur les chiffres</translation>
    </message>
    <message>
        <source>What does this mean?</source>
        <translation>Qu&apos;est-ce que cela veut dire ?</translation>
    </message>
</context>
<context>
    <name>ExportDialog</name>
    <message>
        <source>Export</source>
        <translation>Exporter</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Parcourir…</translation>
    </message>
    <message>
        <source>System language</source>
        <translation>Langue du système</translation>
    </message>
    <message>
        <source>French (; and decimal comma)</source>
        <translation>Français (; et virgule décimale)</translation>
    </message>
    <message>
        <source>English (, and decimal point)</source>
        <translation>Anglais (, et point décimal)</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>(aucune)</translation>
    </message>
    <message>
        <source>Current content</source>
        <translation>Contenu actuel</translation>
    </message>
    <message>
        <source>&amp;Format:</source>
        <translation>&amp;Format&#xa0;:</translation>
    </message>
    <message>
        <source>&amp;Destination:</source>
        <translation>&amp;Destination&#xa0;:</translation>
    </message>
    <message>
        <source>CSV &amp;separators:</source>
        <translation>&amp;Séparateurs CSV&#xa0;:</translation>
    </message>
    <message>
        <source>&amp;Run:</source>
        <translation>&amp;Exécution&#xa0;:</translation>
    </message>
    <message>
        <source>R&amp;elease:</source>
        <translation>&amp;Version publiée&#xa0;:</translation>
    </message>
    <message>
        <source>Scope (nothing ticked: everything)</source>
        <translation>Périmètre (rien de coché&#xa0;: tout)</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>Exécutions</translation>
    </message>
    <message>
        <source>Families</source>
        <translation>Familles</translation>
    </message>
    <message>
        <source>Assessors</source>
        <translation>Annotateurs</translation>
    </message>
    <message>
        <source>&amp;Preview</source>
        <translation>A&amp;perçu</translation>
    </message>
    <message>
        <source>&amp;Export</source>
        <translation>E&amp;xporter</translation>
    </message>
    <message>
        <source>&amp;Open the Folder</source>
        <translation>&amp;Ouvrir le dossier</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
    <message>
        <source>Export into</source>
        <translation>Exporter dans</translation>
    </message>
    <message>
        <source>Export as</source>
        <translation>Exporter sous</translation>
    </message>
    <message>
        <source>Choose a destination.</source>
        <translation>Choisissez une destination.</translation>
    </message>
    <message>
        <source>Will be written:</source>
        <translation>Seront écrits&#xa0;:</translation>
    </message>
    <message>
        <source>Export written: %1</source>
        <translation>Export écrit&#xa0;: %1</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Fermer</translation>
    </message>
</context>
<context>
    <name>GoldCasesModel</name>
    <message>
        <source>Kind</source>
        <translation>Nature</translation>
    </message>
    <message>
        <source>Agent</source>
        <translation>Agent</translation>
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
        <source>All tags</source>
        <translation>Toutes les étiquettes</translation>
    </message>
    <message>
        <source>Show all</source>
        <translation>Tout afficher</translation>
    </message>
    <message>
        <source>New case</source>
        <translation>Nouveau cas</translation>
    </message>
    <message>
        <source>Bulk edit…</source>
        <translation>Modification groupée…</translation>
    </message>
    <message>
        <source>Coverage…</source>
        <translation>Couverture…</translation>
    </message>
    <message>
        <source>Review queue…</source>
        <translation>File de relecture…</translation>
    </message>
    <message>
        <source>Releases…</source>
        <translation>Versions publiées…</translation>
    </message>
    <message>
        <source>Import cases…</source>
        <translation>Importer des cas…</translation>
    </message>
    <message>
        <source>Import test set…</source>
        <translation>Importer un jeu de test…</translation>
    </message>
    <message>
        <source>Family:</source>
        <translation>Famille&#xa0;:</translation>
    </message>
    <message>
        <source>Status:</source>
        <translation>Statut&#xa0;:</translation>
    </message>
    <message>
        <source>Tag:</source>
        <translation>Étiquette&#xa0;:</translation>
    </message>
    <message>
        <source>Release %1 frozen</source>
        <translation>Version publiée %1 figée</translation>
    </message>
    <message>
        <source>Its approved cases are read-only until a new draft version starts (Releases…).</source>
        <translation>Ses cas approuvés sont en lecture seule jusqu&apos;au début d&apos;une nouvelle version brouillon (Versions publiées…).</translation>
    </message>
    <message numerus="yes">
        <source>%Ln case(s)</source>
        <translation>
            <numerusform>%Ln cas</numerusform>
            <numerusform>%Ln cas</numerusform>
        </translation>
    </message>
    <message>
        <source>Delete the case</source>
        <translation>Supprimer le cas</translation>
    </message>
    <message>
        <source>Delete case %1 with its expected sources and judgments? (Undo brings it back.)</source>
        <translation>Supprimer le cas %1 avec ses sources attendues et ses jugements&#xa0;? («&#xa0;Annuler&#xa0;» le rétablit.)</translation>
    </message>
    <message>
        <source>Coverage cell: %1 × %2</source>
        <translation>Cellule de couverture&#xa0;: %1 × %2</translation>
    </message>
    <message>
        <source>(no tag)</source>
        <translation>(sans étiquette)</translation>
    </message>
</context>
<context>
    <name>GuideWindow</name>
    <message>
        <source>rag-annotator Guide</source>
        <extracomment>The page name an entry of the contents list stands for.</extracomment>
        <translation>Guide de rag-annotator</translation>
    </message>
    <message>
        <source>◀ Back</source>
        <translation>◀ Précédent</translation>
    </message>
    <message>
        <source>Forward ▶</source>
        <translation>Suivant ▶</translation>
    </message>
    <message>
        <source>Contents</source>
        <translation>Sommaire</translation>
    </message>
</context>
<context>
    <name>GuidelinesDialog</name>
    <message>
        <source>Judging Guidelines</source>
        <translation>Consignes de jugement</translation>
    </message>
    <message>
        <source># What counts as relevant

A document is relevant when it contains the answer or a passage an expert would cite…</source>
        <translation># Ce qui compte comme pertinent

Un document est pertinent quand il contient la réponse ou un passage qu&apos;un expert citerait…</translation>
    </message>
    <message>
        <source>Markdown. Every assessor sees these rules in the Judge section (G); they are saved in the gold-set file.</source>
        <translation>Markdown. Chaque annotateur voit ces règles dans la section Juger (G)&#xa0;; elles sont enregistrées dans le fichier du jeu de référence.</translation>
    </message>
</context>
<context>
    <name>HandOutDialog</name>
    <message>
        <source>Hand Out Assignments</source>
        <extracomment>What a campaign hands out, in the order of the dialog&apos;s choice.</extracomment>
        <translation>Distribuer les affectations</translation>
    </message>
    <message>
        <source>e.g. Alice, Bruno, Chloé</source>
        <translation>p. ex. Alice, Bruno, Chloé</translation>
    </message>
    <message>
        <source> assessors per pair</source>
        <translation> annotateurs par paire</translation>
    </message>
    <message>
        <source>random</source>
        <translation>au hasard</translation>
    </message>
    <message>
        <source>Judgment pairs of the pool</source>
        <translation>Paires à juger du pool</translation>
    </message>
    <message>
        <source>Claims of the runs&apos; answers, to verify</source>
        <translation>Affirmations des réponses des exécutions, à vérifier</translation>
    </message>
    <message>
        <source>Trajectories of the runs, to review</source>
        <translation>Trajectoires des exécutions, à relire</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Parcourir…</translation>
    </message>
    <message>
        <source>Every run</source>
        <translation>Toutes les exécutions</translation>
    </message>
    <message>
        <source>whole lists</source>
        <translation>listes entières</translation>
    </message>
    <message>
        <source> documents per run</source>
        <translation> documents par exécution</translation>
    </message>
    <message>
        <source>&amp;Assessors (comma-separated):</source>
        <translation>&amp;Annotateurs (séparés par des virgules) :</translation>
    </message>
    <message>
        <source>&amp;Hand out:</source>
        <translation>À &amp;distribuer :</translation>
    </message>
    <message>
        <source>&amp;Judgments per pair (k):</source>
        <translation>&amp;Jugements par paire (k) :</translation>
    </message>
    <message>
        <source>&amp;Runs:</source>
        <translation>&amp;Exécutions :</translation>
    </message>
    <message>
        <source>&amp;Depth:</source>
        <translation>&amp;Profondeur :</translation>
    </message>
    <message>
        <source>&amp;Control pairs (shown again, blind):</source>
        <translation>Paires de &amp;contrôle (remontrées, à l’aveugle) :</translation>
    </message>
    <message>
        <source>&amp;Seed of the order:</source>
        <translation>&amp;Graine de l’ordre :</translation>
    </message>
    <message>
        <source>Campaign &amp;name:</source>
        <translation>&amp;Nom de la campagne :</translation>
    </message>
    <message>
        <source>&amp;Output folder:</source>
        <translation>&amp;Dossier de sortie :</translation>
    </message>
    <message numerus="yes">
        <source>%n assessor(s) × %1</source>
        <translation>
            <numerusform>%n annotateur × %1</numerusform>
            <numerusform>%n annotateurs × %1</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Verdicts per claim (k):</source>
        <translation>&amp;Verdicts par affirmation (k) :</translation>
    </message>
    <message>
        <source>&amp;Reviews per trajectory (k):</source>
        <translation>&amp;Relectures par trajectoire (k) :</translation>
    </message>
    <message>
        <source> assessors per claim</source>
        <translation> annotateurs par affirmation</translation>
    </message>
    <message>
        <source> assessors per trajectory</source>
        <translation> annotateurs par trajectoire</translation>
    </message>
    <message>
        <source>The pool (Judge → Pool…) is shared out so that every pair gets k different assessors and each assessor about the same number of pairs, each in an order of their own. One file per assessor is written in the folder; send each expert theirs (a synced folder or a git repository will do), then File → Team → Collect… brings their work back.</source>
        <translation>Le pool (Juger → Pool…) est réparti pour que chaque paire ait k annotateurs différents et chaque annotateur à peu près le même nombre de paires, chacun dans un ordre qui lui est propre. Un fichier par annotateur est écrit dans le dossier ; envoyez à chaque expert le sien (un dossier synchronisé ou un dépôt git conviennent), puis Fichier → Équipe → Récupérer… rapporte leur travail.</translation>
    </message>
    <message>
        <source>Each item of the chosen runs goes to k different assessors, about the same number each, in an order of their own; the experts verify in the Verify or Agents section of their file, without anyone&apos;s verdict. One file per assessor is written in the folder; File → Team → Collect… brings their verdicts back.</source>
        <translation>Chaque élément des exécutions choisies va à k annotateurs différents, à peu près autant chacun, dans un ordre qui leur est propre ; les experts vérifient dans la section Vérifier ou Agents de leur fichier, sans le verdict de personne. Un fichier par annotateur est écrit dans le dossier ; Fichier → Équipe → Récupérer… rapporte leurs verdicts.</translation>
    </message>
    <message>
        <source>Output folder</source>
        <translation>Dossier de sortie</translation>
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
    <name>ImportDialog</name>
    <message>
        <source>Import cases</source>
        <translation>Importer des cas</translation>
    </message>
    <message>
        <source>Import a corpus</source>
        <translation>Importer un corpus</translation>
    </message>
    <message>
        <source>Import a generated test set</source>
        <translation>Importer un jeu de test généré</translation>
    </message>
    <message>
        <source>What the import did with each file</source>
        <translation>Ce que l’import a fait de chaque fichier</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>Importer</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
    <message>
        <source>→ field</source>
        <translation>→ champ</translation>
    </message>
    <message>
        <source>%1 — %2 rows</source>
        <translation>%1 — %2 lignes</translation>
    </message>
    <message>
        <source>(ignored)</source>
        <translation>(ignorée)</translation>
    </message>
    <message>
        <source>Choose the column that holds the question.</source>
        <translation>Choisissez la colonne qui contient la question.</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Fermer</translation>
    </message>
    <message>
        <source>%1 document(s) added, %2 changed, %3 unchanged, %4 disappeared (kept).</source>
        <translation>%1 document(s) ajouté(s), %2 modifié(s), %3 inchangé(s), %4 disparu(s) (conservé(s)).</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) not imported: the list below says why.</source>
        <translation>
            <numerusform>%n fichier non importé : la liste ci-dessous dit pourquoi.</numerusform>
            <numerusform>%n fichiers non importés : la liste ci-dessous dit pourquoi.</numerusform>
        </translation>
    </message>
    <message>
        <source>Changed or disappeared documents touch %1 case(s) (%2) and %3 judgment(s).</source>
        <translation>Les documents modifiés ou disparus concernent %1 cas (%2) et %3 jugement(s).</translation>
    </message>
    <message numerus="yes">
        <source>%n generated case(s) added to the review queue.</source>
        <translation>
            <numerusform>%n cas généré ajouté à la file de relecture.</numerusform>
            <numerusform>%n cas générés ajoutés à la file de relecture.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n case(s) flagged as near-duplicates.</source>
        <translation>
            <numerusform>%n cas signalé comme quasi-doublon.</numerusform>
            <numerusform>%n cas signalés comme quasi-doublons.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n case(s) expect abstention (the answer is not in the documents).</source>
        <translation>
            <numerusform>%n cas attend une abstention (la réponse n&apos;est pas dans les documents).</numerusform>
            <numerusform>%n cas attendent une abstention (la réponse n&apos;est pas dans les documents).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n case(s) imported.</source>
        <translation>
            <numerusform>%n cas importé.</numerusform>
            <numerusform>%n cas importés.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n expected source(s) found in the corpus.</source>
        <translation>
            <numerusform>%n source attendue trouvée dans le corpus.</numerusform>
            <numerusform>%n sources attendues trouvées dans le corpus.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n source text(s) matched no document and were kept in the notes.</source>
        <translation>
            <numerusform>%n texte de source ne correspond à aucun document et a été conservé dans les notes.</numerusform>
            <numerusform>%n textes de source ne correspondent à aucun document et ont été conservés dans les notes.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>JudgeProgressModel</name>
    <message>
        <source>Key</source>
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
    <name>JudgeSamplePanel</name>
    <message>
        <source>Supported share of claims</source>
        <translation>Part des affirmations étayées</translation>
    </message>
    <message>
        <source>Contradicted share of claims</source>
        <translation>Part des affirmations contredites</translation>
    </message>
    <message>
        <source>Validated answers</source>
        <translation>Réponses validées</translation>
    </message>
    <message>
        <source>Mean faithfulness</source>
        <translation>Fidélité moyenne</translation>
    </message>
    <message>
        <source>Relevant share of pooled pairs</source>
        <translation>Part des paires pertinentes du pool</translation>
    </message>
    <message>
        <source>claims</source>
        <translation>affirmations</translation>
    </message>
    <message>
        <source>answers</source>
        <translation>réponses</translation>
    </message>
    <message>
        <source>relevance</source>
        <translation>pertinence</translation>
    </message>
    <message>
        <source>validated</source>
        <translation>validé</translation>
    </message>
    <message>
        <source>not validated</source>
        <translation>non validé</translation>
    </message>
    <message>
        <source>relevant</source>
        <translation>pertinent</translation>
    </message>
    <message>
        <source>not relevant</source>
        <translation>non pertinent</translation>
    </message>
    <message>
        <source>Judge %1 · %2</source>
        <translation>Juge %1 · %2</translation>
    </message>
    <message>
        <source>from the judge&apos;s labels alone</source>
        <translation>d’après les seules étiquettes du juge</translation>
    </message>
    <message>
        <source>from the reviewed sample alone</source>
        <translation>d’après le seul échantillon relu</translation>
    </message>
    <message>
        <source>prediction-powered: the judge&apos;s figure corrected by the sample</source>
        <translation>inférence assistée par prédiction (PPI)&#xa0;: le chiffre du juge corrigé par l’échantillon</translation>
    </message>
    <message>
        <source>Judge</source>
        <translation>Juge</translation>
    </message>
    <message>
        <source>Human sample</source>
        <translation>Échantillon humain</translation>
    </message>
    <message>
        <source>Corrected</source>
        <translation>Corrigé</translation>
    </message>
    <message>
        <source>95% interval</source>
        <translation>Intervalle à 95&#xa0;%</translation>
    </message>
    <message>
        <source>Reviewed / judged</source>
        <translation>Relus / jugés</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>Précision</translation>
    </message>
    <message>
        <source>interval</source>
        <translation>intervalle</translation>
    </message>
    <message>
        <source>Recall</source>
        <translation>Rappel</translation>
    </message>
    <message>
        <source>interval </source>
        <translation>intervalle </translation>
    </message>
    <message>
        <source>%1 of %2 sampled units reviewed (%3 to go, Q in Verify); judge&apos;s accuracy %4 (%5), κ %6; %7 disagreement(s). %8 unit(s) verified outside the sample are not counted.</source>
        <translation>%1 unités relues sur %2 tirées (%3 restantes, Q dans Vérifier)&#xa0;; exactitude du juge %4 (%5), κ %6&#xa0;; %7 désaccord(s). %8 unité(s) vérifiée(s) hors de l’échantillon ne sont pas comptées.</translation>
    </message>
    <message>
        <source>Automatic judges checked on a human sample</source>
        <translation>Juges automatiques contrôlés sur un échantillon humain</translation>
    </message>
    <message>
        <source>Each figure three ways: the judge&apos;s own, the human sample&apos;s alone, and corrected (prediction-powered inference: the judge&apos;s figure over every unit plus the mean human−judge difference on the random sample, stratified by the judge&apos;s label and family).</source>
        <translation>Chaque chiffre de trois façons&#xa0;: celui du juge, celui de l’échantillon humain seul, et corrigé (inférence assistée par prédiction&#xa0;: le chiffre du juge sur toutes les unités plus l’écart moyen humain−juge sur l’échantillon aléatoire, stratifié par l’étiquette du juge et la famille).</translation>
    </message>
</context>
<context>
    <name>JudgeSection</name>
    <message>
        <source>Document</source>
        <extracomment>Pool columns hidden while judging blind (see the module docstring).</extracomment>
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
        <source>Adjudication queue: disputed pairs only, every label shown; your label settles the pair for everyone. D to leave.</source>
        <translation>File d&apos;arbitrage&#xa0;: paires en désaccord uniquement, tous les jugements affichés&#xa0;; votre jugement tranche la paire pour tout le monde. D pour sortir.</translation>
    </message>
    <message>
        <source>Note on this pair (E to write, Enter to save, Esc to go back)</source>
        <translation>Note sur cette paire (E pour écrire, Entrée pour enregistrer, Échap pour revenir)</translation>
    </message>
    <message>
        <source>Others</source>
        <translation>Autres</translation>
    </message>
    <message>
        <source>Reference</source>
        <translation>Référence</translation>
    </message>
    <message>
        <source>Guidelines</source>
        <translation>Consignes</translation>
    </message>
    <message>
        <source>Disputes</source>
        <translation>Désaccords</translation>
    </message>
    <message>
        <source>Pool…</source>
        <translation>Pool…</translation>
    </message>
    <message>
        <source>Previous</source>
        <translation>Précédente</translation>
    </message>
    <message>
        <source>Next</source>
        <translation>Suivante</translation>
    </message>
    <message>
        <source>Previous case</source>
        <translation>Cas précédent</translation>
    </message>
    <message>
        <source>Next case</source>
        <translation>Cas suivant</translation>
    </message>
    <message>
        <source>Settles most</source>
        <translation>La plus décisive</translation>
    </message>
    <message>
        <source>Can’t judge…</source>
        <translation>Impossible…</translation>
    </message>
    <message>
        <source>Your decision</source>
        <translation>Votre décision</translation>
    </message>
    <message>
        <source>No judging guidelines yet. Write them with Edit → Judging Guidelines… so every assessor reads the same rules.</source>
        <extracomment>Lines whose term spans a highlighter keeps (a few documents&apos; worth).</extracomment>
        <translation>Pas encore de consignes de jugement. Rédigez-les avec Édition → Consignes de jugement… pour que chaque annotateur lise les mêmes règles.</translation>
    </message>
    <message>
        <source>No disputed pair in this case (N for the next case with one).</source>
        <translation>Aucune paire en désaccord dans ce cas (N pour le cas suivant qui en a une).</translation>
    </message>
    <message>
        <source>No disputed pair in the gold set: nothing to adjudicate. Disputes appear when assessors disagree (relevant vs not relevant), e.g. after merging a colleague&apos;s file.</source>
        <translation>Aucune paire en désaccord dans le jeu de référence&#xa0;: rien à arbitrer. Les désaccords apparaissent quand des annotateurs divergent (pertinent ou non pertinent), par exemple après la fusion du fichier d&apos;un collègue.</translation>
    </message>
    <message>
        <source>No document has been retrieved for this case yet and it has no expected source: there is nothing to judge.</source>
        <translation>Aucun document n&apos;a encore été retrouvé pour ce cas et il n&apos;a pas de source attendue&#xa0;: il n&apos;y a rien à juger.</translation>
    </message>
    <message>
        <source>Reference answer:</source>
        <translation>Réponse de référence :</translation>
    </message>
    <message>
        <source>(none written yet)</source>
        <translation>(pas encore rédigée)</translation>
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
        <source>This file was still locked by %1, whose copy of the app had stopped: the lock is yours now.</source>
        <translation>Ce fichier était encore verrouillé par %1, dont l&apos;application s&apos;était arrêtée : le verrou est à vous maintenant.</translation>
    </message>
    <message>
        <source>Backup %1 restored; the previous content is kept in the backups.</source>
        <translation>Sauvegarde %1 restaurée ; le contenu précédent est conservé dans les sauvegardes.</translation>
    </message>
    <message>
        <source>Copy saved to %1</source>
        <translation>Copie enregistrée dans %1</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <extracomment>The registry&apos;s areas whose commands the window itself holds (its menus); each section makes its own (``Section.install_commands``), when it is built.</extracomment>
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
        <source>&amp;Import</source>
        <translation>&amp;Importer</translation>
    </message>
    <message>
        <source>Cases (CSV, XLSX, JSONL)…</source>
        <translation>Cas (CSV, XLSX, JSONL)…</translation>
    </message>
    <message>
        <source>Ragas Test Set, to Review…</source>
        <translation>Jeu de test Ragas, à relire…</translation>
    </message>
    <message>
        <source>Run (TREC, JSONL, Ragas)…</source>
        <translation>Exécution (TREC, JSONL, Ragas)…</translation>
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
        <source>Nothing was recorded: each change is recorded with its author&apos;s name.</source>
        <translation>Rien n&apos;a été enregistré&#xa0;: chaque modification est enregistrée avec le nom de son auteur.</translation>
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
        <source>Merge a Colleague’s File</source>
        <translation>Fusionner le fichier d&apos;un collègue</translation>
    </message>
    <message>
        <source>Corpus or a Document (BEIR, CSV, XLSX, PDF, Word…)…</source>
        <translation>Corpus ou document (BEIR, CSV, XLSX, PDF, Word…)…</translation>
    </message>
    <message>
        <source>Corpus from a Folder of Documents (PDF, Word, HTML…)…</source>
        <translation>Corpus depuis un dossier de documents (PDF, Word, HTML…)…</translation>
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
        <source>Read-only: changes to this file are not possible.</source>
        <translation>Lecture seule&#xa0;: ce fichier ne peut pas être modifié.</translation>
    </message>
    <message>
        <source>Read-only: this file failed its integrity check (nothing was written to it). Restore it from a backup (File → Restore from Backup…) or keep a copy.</source>
        <translation>Lecture seule&#xa0;: ce fichier a échoué au contrôle d&apos;intégrité (rien n&apos;y a été écrit). Restaurez-le depuis une sauvegarde (Fichier → Restaurer depuis une sauvegarde…) ou gardez-en une copie.</translation>
    </message>
    <message>
        <source>Read-only: this file is open in rag-annotator by %1 (host %2) since %3. Close it there to edit it here.</source>
        <translation>Lecture seule&#xa0;: ce fichier est ouvert dans rag-annotator par %1 (machine %2) depuis %3. Fermez-le là-bas pour le modifier ici.</translation>
    </message>
    <message>
        <source>Read-only: the file or its folder cannot be written. Copy it somewhere you can write (File → Save a Copy…) to edit it.</source>
        <translation>Lecture seule&#xa0;: impossible d&apos;écrire dans le fichier ou dans son dossier. Copiez-le dans un emplacement où vous pouvez écrire (Fichier → Enregistrer une copie…) pour le modifier.</translation>
    </message>
    <message>
        <source>File in Use</source>
        <translation>Fichier déjà ouvert</translation>
    </message>
    <message>
        <source>“%1” is open in rag-annotator by %2 on %3 since %4.</source>
        <translation>«&#xa0;%1&#xa0;» est ouvert dans rag-annotator par %2 sur %3 depuis %4.</translation>
    </message>
    <message>
        <source>Only one copy of the app may change a file at a time, so no judgment is ever lost. You can open it read-only to look at it.</source>
        <translation>Une seule copie de l&apos;application peut modifier un fichier à la fois, pour qu&apos;aucun jugement ne soit jamais perdu. Vous pouvez l&apos;ouvrir en lecture seule pour le consulter.</translation>
    </message>
    <message>
        <source>Its lock is dated in the future (that computer’s clock is ahead, or the lock file was copied). It counts as abandoned once it has not changed for %1 minutes; if nobody has the file open, you may delete “%2”.</source>
        <translation>Son verrou est daté dans le futur (l’horloge de cet ordinateur est en avance, ou le fichier de verrou a été copié). Il est considéré comme abandonné dès qu’il n’a pas changé pendant %1 minutes ; si personne n’a le fichier ouvert, vous pouvez supprimer « %2 ».</translation>
    </message>
    <message>
        <source>Open Read-Only</source>
        <translation>Ouvrir en lecture seule</translation>
    </message>
    <message>
        <source>Settings could not be saved: %1</source>
        <translation>Les paramètres n&apos;ont pas pu être enregistrés&#xa0;: %1</translation>
    </message>
</context>
<context>
    <name>MergeReport</name>
    <message>
        <source>Judgments</source>
        <translation>Jugements</translation>
    </message>
    <message>
        <source>Adjudications</source>
        <translation>Arbitrages</translation>
    </message>
    <message>
        <source>Claim verdicts</source>
        <translation>Verdicts des affirmations</translation>
    </message>
    <message>
        <source>Assessors</source>
        <translation>Annotateurs</translation>
    </message>
    <message>
        <source>Trajectory reviews</source>
        <translation>Relectures de trajectoires</translation>
    </message>
    <message>
        <source>%1: %2 added, %3 updated, %4 unchanged</source>
        <translation>%1 : %2 ajoutés, %3 mis à jour, %4 inchangés</translation>
    </message>
    <message>
        <source>Skipped: %1. Conflicts: %2 (listed in the details).</source>
        <translation>Ignorés : %1. Conflits : %2 (détaillés ci-dessous).</translation>
    </message>
    <message>
        <source>Merge</source>
        <translation>Fusion</translation>
    </message>
    <message>
        <source>Merged %1.</source>
        <translation>%1 fusionné.</translation>
    </message>
</context>
<context>
    <name>NoFilePage</name>
    <message>
        <source>No gold set is open.</source>
        <translation>Aucun jeu de référence n&apos;est ouvert.</translation>
    </message>
    <message>
        <source>Create a new gold set, open one, or explore the sample. F1 opens the guide.</source>
        <translation>Créez un jeu de référence, ouvrez-en un ou explorez l&apos;exemple. F1 ouvre le guide.</translation>
    </message>
    <message>
        <source>Open the Sample</source>
        <translation>Ouvrir l&apos;exemple</translation>
    </message>
</context>
<context>
    <name>PoolDialog</name>
    <message>
        <source>Judging Pool</source>
        <translation>Pool de jugement</translation>
    </message>
    <message>
        <source>Every run, including runs imported later</source>
        <translation>Toutes les exécutions, y compris celles importées plus tard</translation>
    </message>
    <message>
        <source>whole lists</source>
        <translation>listes entières</translation>
    </message>
    <message>
        <source> documents per run</source>
        <translation> documents par exécution</translation>
    </message>
    <message>
        <source>The pool of a case is the union of the chosen runs&apos; top documents, plus its expected sources and every pair already judged. A document several runs retrieved is judged once. The metrics still count every retrieved document: outside the pool, unjudged documents are counted by the chosen policy.</source>
        <translation>Le pool d&apos;un cas est l&apos;union des premiers documents des exécutions choisies, plus ses sources attendues et toutes les paires déjà jugées. Un document retrouvé par plusieurs exécutions n&apos;est jugé qu&apos;une fois. Les métriques comptent toujours chaque document retrouvé&#xa0;: hors du pool, les documents non jugés sont comptés selon la politique choisie.</translation>
    </message>
    <message>
        <source>Depth:</source>
        <translation>Profondeur&#xa0;:</translation>
    </message>
</context>
<context>
    <name>QFileDialog</name>
    <message>
        <source>&amp;Look in:</source>
        <extracomment>Qt&apos;s own texts that Qt&apos;s French catalogue (``qtbase_fr.qm`` as PySide6 ships it) lacks: Qt 6 gave the file dialog&apos;s labels an accelerator (&quot;&amp;Look in:&quot;) and the catalogue still has the texts without it, so the French file dialog was half English. Marked here, they are in our catalogue, which is asked when Qt&apos;s has no answer.</extracomment>
        <translation>&amp;Voir dans&#xa0;:</translation>
    </message>
    <message>
        <source>Files of &amp;type:</source>
        <translation>Fichiers de &amp;type&#xa0;:</translation>
    </message>
</context>
<context>
    <name>ReleasesDialog</name>
    <message>
        <source>Releases</source>
        <translation>Versions publiées</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Nom</translation>
    </message>
    <message>
        <source>Frozen on</source>
        <translation>Figée le</translation>
    </message>
    <message>
        <source>By</source>
        <translation>Par</translation>
    </message>
    <message>
        <source>Cases</source>
        <translation>Cas</translation>
    </message>
    <message>
        <source>Content hash</source>
        <translation>Empreinte du contenu</translation>
    </message>
    <message>
        <source>Freeze a release…</source>
        <translation>Figer une version publiée…</translation>
    </message>
    <message>
        <source>Start a new draft version</source>
        <translation>Commencer une nouvelle version brouillon</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>Comparer</translation>
    </message>
    <message>
        <source>with</source>
        <translation>avec</translation>
    </message>
    <message>
        <source>Release “%1” is frozen: its approved cases are read-only until a new draft version starts.</source>
        <translation>La version publiée «&#xa0;%1&#xa0;» est figée&#xa0;: ses cas approuvés sont en lecture seule jusqu&apos;au début d&apos;une nouvelle version brouillon.</translation>
    </message>
    <message>
        <source>Draft version: every case can be edited.</source>
        <translation>Version brouillon&#xa0;: tous les cas peuvent être modifiés.</translation>
    </message>
    <message>
        <source>(current gold set)</source>
        <translation>(jeu de référence actuel)</translation>
    </message>
    <message>
        <source>No release yet. Freeze one to hand the gold set over with a changelog.</source>
        <translation>Aucune version publiée pour l&apos;instant. Figez-en une pour transmettre le jeu de référence avec un journal des modifications.</translation>
    </message>
    <message>
        <source>Freeze a release</source>
        <translation>Figer une version publiée</translation>
    </message>
    <message>
        <source>What this version is for (optional)…</source>
        <translation>À quoi sert cette version (facultatif)…</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>Note</translation>
    </message>
    <message>
        <source>The approved cases become read-only until a new draft version starts.</source>
        <translation>Les cas approuvés passent en lecture seule jusqu&apos;au début d&apos;une nouvelle version brouillon.</translation>
    </message>
</context>
<context>
    <name>ReplayDialog</name>
    <message>
        <source>What if: replay a rights change</source>
        <translation>Et si : rejouer un changement de droits</translation>
    </message>
    <message>
        <source>Remove a group from an identity</source>
        <translation>Retirer un groupe à une identité</translation>
    </message>
    <message>
        <source>Toggle the current cell: %1 × %2 (groups → %3)</source>
        <translation>Basculer la cellule courante : %1 × %2 (groupes → %3)</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Exécution</translation>
    </message>
    <message>
        <source>Case</source>
        <translation>Cas</translation>
    </message>
    <message>
        <source>Identity</source>
        <translation>Identité</translation>
    </message>
    <message>
        <source>Now exposed</source>
        <translation>Désormais exposé</translation>
    </message>
    <message>
        <source>Documents</source>
        <translation>Documents</translation>
    </message>
    <message>
        <source>Figure</source>
        <translation>Chiffre</translation>
    </message>
    <message>
        <source>Before</source>
        <translation>Avant</translation>
    </message>
    <message>
        <source>After</source>
        <translation>Après</translation>
    </message>
    <message>
        <source>Apply the change</source>
        <translation>Appliquer le changement</translation>
    </message>
    <message>
        <source>Remove from identity</source>
        <translation>Retirer à l&apos;identité</translation>
    </message>
    <message>
        <source>the group</source>
        <translation>le groupe</translation>
    </message>
    <message>
        <source>Stored answers that would expose a forbidden document:</source>
        <translation>Réponses enregistrées qui exposeraient un document interdit :</translation>
    </message>
    <message>
        <source>Figures that would change:</source>
        <translation>Chiffres qui changeraient :</translation>
    </message>
    <message>
        <source>retrieved</source>
        <translation>récupéré</translation>
    </message>
    <message>
        <source>context</source>
        <translation>transmis au modèle</translation>
    </message>
    <message>
        <source>cited</source>
        <translation>cité</translation>
    </message>
    <message>
        <source>cases exposed</source>
        <translation>cas exposés</translation>
    </message>
    <message>
        <source>all exposures</source>
        <translation>toutes les expositions</translation>
    </message>
    <message>
        <source>identity %1</source>
        <translation>identité %1</translation>
    </message>
    <message>
        <source>run %1</source>
        <translation>exécution %1</translation>
    </message>
    <message>
        <source>Choose an identity and one of its groups.</source>
        <translation>Choisissez une identité et l&apos;un de ses groupes.</translation>
    </message>
    <message>
        <source>After %1: %2 new exposure(s) in %3 stored answer(s) of %4 run(s), %5 removed. Nothing is run again; nothing changes until you apply.</source>
        <translation>Après %1 : %2 nouvelle(s) exposition(s) dans %3 réponse(s) enregistrée(s) de %4 exécution(s), %5 supprimée(s). Rien n&apos;est relancé ; rien ne change avant d&apos;appliquer.</translation>
    </message>
</context>
<context>
    <name>RestoreDialog</name>
    <message>
        <source>Restore from Backup</source>
        <translation>Restaurer depuis une sauvegarde</translation>
    </message>
    <message>
        <source>Taken</source>
        <translation>Prise le</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Taille</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Type</translation>
    </message>
    <message>
        <source>copy taken before a restore</source>
        <translation>copie prise avant une restauration</translation>
    </message>
    <message>
        <source>automatic</source>
        <translation>automatique</translation>
    </message>
    <message>
        <source>Restore This Backup…</source>
        <translation>Restaurer cette sauvegarde…</translation>
    </message>
    <message>
        <source>Backups of “%1” are taken when it is opened and every 30 minutes while it changes: the newest 12, one a day for a week, one a week for 8 weeks. Restoring keeps a copy of the file as it is now, so it can be undone the same way.</source>
        <translation>Les sauvegardes de «&#xa0;%1&#xa0;» sont prises à son ouverture puis toutes les 30 minutes tant qu&apos;il est modifié&#xa0;: les 12 plus récentes, une par jour pendant une semaine, une par semaine pendant 8 semaines. Une restauration conserve une copie du fichier dans son état actuel&#xa0;; elle peut donc être annulée de la même façon.</translation>
    </message>
    <message>
        <source>No backup of this file yet.</source>
        <translation>Aucune sauvegarde de ce fichier pour l&apos;instant.</translation>
    </message>
    <message>
        <source>&lt;b&gt;This backup holds&lt;/b&gt; %1 cases, %2 documents, %3 runs, %4 judged pairs, %5 verified claims.&lt;br&gt;Last change in it: %6</source>
        <translation>&lt;b&gt;Cette sauvegarde contient&lt;/b&gt; %1 cas, %2 documents, %3 exécutions, %4 paires jugées, %5 affirmations vérifiées.&lt;br&gt;Dernière modification enregistrée&#xa0;: %6</translation>
    </message>
    <message>
        <source>Replace the content of “%1” with this backup? A copy of the file as it is now is kept in the backups first.</source>
        <translation>Remplacer le contenu de «&#xa0;%1&#xa0;» par cette sauvegarde&#xa0;? Une copie du fichier dans son état actuel est d&apos;abord conservée dans les sauvegardes.</translation>
    </message>
</context>
<context>
    <name>ReviewQueueDialog</name>
    <message>
        <source>Review queue</source>
        <translation>File de relecture</translation>
    </message>
    <message>
        <source>Pending</source>
        <translation>En attente</translation>
    </message>
    <message>
        <source>Accepted</source>
        <translation>Accepté</translation>
    </message>
    <message>
        <source>Edited</source>
        <translation>Modifié</translation>
    </message>
    <message>
        <source>Rejected</source>
        <translation>Rejeté</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Clé</translation>
    </message>
    <message>
        <source>Question</source>
        <translation>Question</translation>
    </message>
    <message>
        <source>Decision</source>
        <translation>Décision</translation>
    </message>
    <message>
        <source>Near-duplicate of</source>
        <translation>Quasi-doublon de</translation>
    </message>
    <message>
        <source>Origin</source>
        <translation>Origine</translation>
    </message>
    <message>
        <source>Pending only</source>
        <translation>En attente seulement</translation>
    </message>
    <message>
        <source>Accept (A)</source>
        <translation>Accepter (A)</translation>
    </message>
    <message>
        <source>Edit (E)</source>
        <translation>Modifier (E)</translation>
    </message>
    <message>
        <source>Reject (R)</source>
        <translation>Rejeter (R)</translation>
    </message>
    <message>
        <source>%1 pending of %2</source>
        <translation>%1 en attente sur %2</translation>
    </message>
    <message>
        <source>No generated case to review.</source>
        <translation>Aucun cas généré à relire.</translation>
    </message>
    <message>
        <source>None</source>
        <translation>Néant</translation>
    </message>
    <message>
        <source>Decision:</source>
        <translation>Décision :</translation>
    </message>
    <message>
        <source>Reference answer</source>
        <translation>Réponse de référence</translation>
    </message>
    <message>
        <source>Expected sources</source>
        <translation>Sources attendues</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>Notes</translation>
    </message>
    <message>
        <source>Near-duplicate of %1: “%2”</source>
        <translation>Quasi-doublon de %1&#xa0;: «&#xa0;%2&#xa0;»</translation>
    </message>
    <message>
        <source>Edit the generated case</source>
        <translation>Modifier le cas généré</translation>
    </message>
    <message>
        <source>Done, accept</source>
        <translation>Terminé, accepter</translation>
    </message>
</context>
<context>
    <name>RightsMatrixModel</name>
    <message>
        <source>Groups</source>
        <translation>Groupes</translation>
    </message>
    <message>
        <source>%1 (role only)</source>
        <translation>%1 (rôle seul)</translation>
    </message>
    <message>
        <source>✓ open to all</source>
        <translation>✓ ouvert à tous</translation>
    </message>
    <message>
        <source>✓ allowed</source>
        <translation>✓ autorisé</translation>
    </message>
    <message>
        <source>✗ forbidden</source>
        <translation>✗ interdit</translation>
    </message>
    <message>
        <source>none (open)</source>
        <translation>aucun (ouvert)</translation>
    </message>
    <message>
        <source>Document groups: %1 · groups of %2: %3 · Space toggles, Ctrl+Z undoes</source>
        <translation>Groupes du document : %1 · groupes de %2 : %3 · Espace bascule, Ctrl+Z annule</translation>
    </message>
</context>
<context>
    <name>RightsMatrixView</name>
    <message>
        <source>none</source>
        <extracomment>Columns before the identities: key, title, the document&apos;s groups.</extracomment>
        <translation>aucun</translation>
    </message>
    <message>
        <source>%1 would become readable by everyone (its groups: %2).</source>
        <translation>%1 deviendrait lisible par tout le monde (ses groupes : %2).</translation>
    </message>
    <message>
        <source>%1&apos;s groups would become: %2.</source>
        <translation>Les groupes de %1 deviendraient : %2.</translation>
    </message>
    <message>
        <source>These identities gain access: %1.</source>
        <translation>Ces identités y accèdent désormais : %1.</translation>
    </message>
    <message>
        <source>So does any role without a declared identity.</source>
        <translation>De même que tout rôle sans identité déclarée.</translation>
    </message>
    <message>
        <source>Widen who may read %1?</source>
        <translation>Élargir qui peut lire %1 ?</translation>
    </message>
    <message>
        <source>Allow</source>
        <translation>Autoriser</translation>
    </message>
    <message>
        <source>Filter documents by key or title…</source>
        <extracomment>Emitted with a short text after each edit (what changed), for the status line.</extracomment>
        <translation>Filtrer les documents par clé ou titre…</translation>
    </message>
    <message>
        <source>Identity:</source>
        <translation>Identité :</translation>
    </message>
    <message>
        <source>Add identity…</source>
        <translation>Ajouter une identité…</translation>
    </message>
    <message>
        <source>Rename…</source>
        <translation>Renommer…</translation>
    </message>
    <message>
        <source>Groups…</source>
        <translation>Groupes…</translation>
    </message>
    <message>
        <source>Remove identity</source>
        <translation>Supprimer l&apos;identité</translation>
    </message>
    <message>
        <source>What if…</source>
        <translation>Et si…</translation>
    </message>
    <message>
        <source>All identities</source>
        <translation>Toutes les identités</translation>
    </message>
    <message>
        <source>Move to an identity&apos;s column first.</source>
        <translation>Placez-vous d&apos;abord dans la colonne d&apos;une identité.</translation>
    </message>
    <message>
        <source>%1: unchanged.</source>
        <translation>%1 : inchangé.</translation>
    </message>
    <message>
        <source>%1: groups %2 → %3</source>
        <translation>%1 : groupes %2 → %3</translation>
    </message>
    <message>
        <source>Move to a declared identity&apos;s column first (a role only column: add it as an identity).</source>
        <translation>Placez-vous d&apos;abord dans la colonne d&apos;une identité déclarée (colonne « rôle seul » : ajoutez-la comme identité).</translation>
    </message>
    <message>
        <source>Add a test identity</source>
        <translation>Ajouter une identité de test</translation>
    </message>
    <message>
        <source>Name of the identity (e.g. salarié, manager, RH):</source>
        <translation>Nom de l&apos;identité (par ex. salarié, manager, RH) :</translation>
    </message>
    <message>
        <source>Groups of %1</source>
        <translation>Groupes de %1</translation>
    </message>
    <message>
        <source>Its groups, comma-separated (e.g. tous, managers):</source>
        <translation>Ses groupes, séparés par des virgules (par ex. tous, managers) :</translation>
    </message>
    <message>
        <source>Rename %1</source>
        <translation>Renommer %1</translation>
    </message>
    <message>
        <source>New name (the cases it asks follow):</source>
        <translation>Nouveau nom (les cas qu&apos;elle pose suivent) :</translation>
    </message>
    <message>
        <source>Its groups, comma-separated:</source>
        <translation>Ses groupes, séparés par des virgules :</translation>
    </message>
</context>
<context>
    <name>RunDialog</name>
    <message>
        <source>Name:</source>
        <translation>Nom&#xa0;:</translation>
    </message>
    <message>
        <source>Model:</source>
        <translation>Modèle&#xa0;:</translation>
    </message>
    <message>
        <source>Corpus version:</source>
        <translation>Version du corpus&#xa0;:</translation>
    </message>
    <message>
        <source>Prompt version:</source>
        <translation>Version du prompt&#xa0;:</translation>
    </message>
    <message>
        <source>Index version:</source>
        <translation>Version de l&apos;index&#xa0;:</translation>
    </message>
    <message>
        <source>Run %1</source>
        <translation>Exécution %1</translation>
    </message>
    <message>
        <source>Notes:</source>
        <translation>Notes&#xa0;:</translation>
    </message>
</context>
<context>
    <name>RunImportDialog</name>
    <message>
        <source>Import a Run</source>
        <translation>Importer une exécution</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>Choisir…</translation>
    </message>
    <message>
        <source>default: the run tag or the file name</source>
        <translation>par défaut&#xa0;: l&apos;étiquette de l&apos;exécution ou le nom du fichier</translation>
    </message>
    <message>
        <source>Format:</source>
        <translation>Format&#xa0;:</translation>
    </message>
    <message>
        <source>File:</source>
        <translation>Fichier&#xa0;:</translation>
    </message>
    <message>
        <source>Run name:</source>
        <translation>Nom de l&apos;exécution&#xa0;:</translation>
    </message>
</context>
<context>
    <name>RunsSection</name>
    <message>
        <source>TREC run (qid Q0 docno rank score tag)</source>
        <extracomment>Run formats the import button offers, with the file filter of each.</extracomment>
        <translation>Exécution TREC (qid Q0 docno rank score tag)</translation>
    </message>
    <message>
        <source>JSONL run (case, retrieved, answer…)</source>
        <translation>Exécution JSONL (case, retrieved, answer…)</translation>
    </message>
    <message>
        <source>Agent trajectories JSONL (case, steps, final_state…)</source>
        <translation>Trajectoires d&apos;agent JSONL (case, steps, final_state…)</translation>
    </message>
    <message>
        <source>Agent chat logs, OpenAI style (messages with tool_calls)</source>
        <translation>Journaux de conversation d&apos;agent, style OpenAI (messages avec tool_calls)</translation>
    </message>
    <message>
        <source>tau-bench / tau2-bench results (task_id, trial, reward, traj)</source>
        <translation>Résultats tau-bench / tau2-bench (task_id, trial, reward, traj)</translation>
    </message>
    <message>
        <source>RAGChecker input or output file (results with retrieved_context)</source>
        <translation>Fichier d’entrée ou de sortie RAGChecker (results avec retrieved_context)</translation>
    </message>
    <message>
        <source>Run</source>
        <extracomment>A field of the first JSON line → the run format it points to (first match wins).</extracomment>
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
        <source>Trajectories</source>
        <translation>Trajectoires</translation>
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
    <message>
        <source>Import a Run…</source>
        <translation>Importer une exécution…</translation>
    </message>
    <message>
        <source>Edit…</source>
        <translation>Modifier…</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Supprimer</translation>
    </message>
    <message numerus="yes">
        <source>Its %n agent trajectory(ies) and their reviews go too.</source>
        <translation>
            <numerusform>Sa trajectoire d&apos;agent et sa relecture partent aussi.</numerusform>
            <numerusform>Ses %n trajectoires d&apos;agent et leurs relectures partent aussi.</numerusform>
        </translation>
    </message>
    <message>
        <source>Delete Run</source>
        <translation>Supprimer l&apos;exécution</translation>
    </message>
    <message>
        <source>Delete the run “%1” with its %2 retrieved documents and %3 answers? Judgments stay (they belong to the pairs). Ctrl+Z brings it back.</source>
        <translation>Supprimer l&apos;exécution «&#xa0;%1&#xa0;» avec ses %2 documents retrouvés et ses %3 réponses&#xa0;? Les jugements restent (ils appartiennent aux paires). Ctrl+Z la rétablit.</translation>
    </message>
    <message>
        <source>Ragas CSV or JSONL (user_input or question, contexts…)</source>
        <translation>Ragas CSV ou JSONL (user_input ou question, contexts…)</translation>
    </message>
    <message>
        <source>Import a Run</source>
        <translation>Importer une exécution</translation>
    </message>
</context>
<context>
    <name>SampleQueue</name>
    <message>
        <source>Review a judge&apos;s sample</source>
        <translation>Revoir l’échantillon d’un juge</translation>
    </message>
    <message>
        <source>Judge:</source>
        <translation>Juge :</translation>
    </message>
    <message>
        <source>No relevance review sample in this file: draw one with Verify › Draw a Review Sample… (level: relevance).</source>
        <translation>Aucun échantillon de revue de pertinence dans ce fichier : tirez-en un avec Vérifier › Tirer un échantillon de revue… (niveau : pertinence).</translation>
    </message>
    <message>
        <source>Review sample of judge %1: %2 of %3 pairs labelled. The judge&apos;s label stays hidden until you give yours. Q to leave.</source>
        <translation>Échantillon de revue du juge %1 : %2 paires sur %3 étiquetées. L’étiquette du juge reste cachée tant que vous n’avez pas donné la vôtre. Q pour sortir.</translation>
    </message>
    <message>
        <source>Pair just labelled: you said %1; the judge said %2.</source>
        <translation>Paire tout juste étiquetée : vous avez dit %1 ; le juge a dit %2.</translation>
    </message>
</context>
<context>
    <name>SampleReview</name>
    <message>
        <source>claims</source>
        <translation>affirmations</translation>
    </message>
    <message>
        <source>answers</source>
        <translation>réponses</translation>
    </message>
    <message>
        <source>Review a judge&apos;s sample</source>
        <translation>Relire l’échantillon d’un juge</translation>
    </message>
    <message>
        <source>Sample:</source>
        <translation>Échantillon&#xa0;:</translation>
    </message>
    <message>
        <source>No review sample of a judge&apos;s claims in this file: draw one with rag-annotator sample FILE --judge NAME --level claims --size N.</source>
        <translation>Aucun échantillon de revue des affirmations d’un juge dans ce fichier&#xa0;: tirez-en un avec rag-annotator sample FICHIER --judge NOM --level claims --size N.</translation>
    </message>
    <message>
        <source>Review sample of judge %1: %2 of %3 claims reviewed. The judge&apos;s verdict stays hidden until you give yours.</source>
        <translation>Échantillon de relecture du juge %1&#xa0;: %2 affirmations relues sur %3. Le verdict du juge reste caché tant que vous n’avez pas donné le vôtre.</translation>
    </message>
    <message>
        <source>Review sample of judge %1 (answers): %2 of %3 answers validated or not (R, Space), %4 of %5 of their claims verified. The judge&apos;s verdicts stay hidden until you decide.</source>
        <translation>Échantillon de relecture du juge %1 (réponses)&#xa0;: %2 réponses sur %3 validées ou non (R, Espace), %4 de leurs %5 affirmations vérifiées. Les verdicts du juge restent cachés tant que vous n’avez pas décidé.</translation>
    </message>
    <message>
        <source>Claim %1: you said %2; the judge said %3.</source>
        <translation>Affirmation %1&#xa0;: vous avez dit %2&#xa0;; le juge a dit %3.</translation>
    </message>
</context>
<context>
    <name>Settling</name>
    <message numerus="yes">
        <source>Settles %n undetermined value(s)</source>
        <translation>
            <numerusform>Tranche %n valeur indéterminée</numerusform>
            <numerusform>Tranche %n valeurs indéterminées</numerusform>
        </translation>
    </message>
    <message>
        <source>Narrows undetermined values</source>
        <translation>Resserre des valeurs indéterminées</translation>
    </message>
    <message>
        <source>No unjudged pair settles a metric value: every value is determined, or depends on several pairs.</source>
        <translation>Aucune paire non jugée ne détermine à elle seule une valeur de métrique&#xa0;: chaque valeur est déterminée, ou dépend de plusieurs paires.</translation>
    </message>
</context>
<context>
    <name>SourceDialog</name>
    <message>
        <source>Add an expected source</source>
        <translation>Ajouter une source attendue</translation>
    </message>
    <message>
        <source>Expected source</source>
        <translation>Source attendue</translation>
    </message>
    <message>
        <source>Search key or title…</source>
        <translation>Rechercher une clé ou un titre…</translation>
    </message>
    <message>
        <source>Only the selected passage</source>
        <translation>Seulement le passage sélectionné</translation>
    </message>
    <message>
        <source>Note (optional): why this source, the conflict…</source>
        <translation>Note (facultative)&#xa0;: pourquoi cette source, la contradiction…</translation>
    </message>
    <message>
        <source>Select a passage in the text or on the page (mouse, or Shift and the arrow keys) to name it; F7 shows the page or the text, PgDown / PgUp turn the pages:</source>
        <translation>Sélectionnez un passage dans le texte ou sur la page (souris, ou Maj et les flèches) pour le désigner ; F7 affiche la page ou le texte, Page suiv / Page préc tournent les pages :</translation>
    </message>
    <message>
        <source>Page %4, characters %1–%2: “%3”</source>
        <translation>Page %4, caractères %1–%2 : « %3 »</translation>
    </message>
    <message>
        <source>Characters %1–%2: “%3”</source>
        <translation>Caractères %1–%2&#xa0;: «&#xa0;%3&#xa0;»</translation>
    </message>
</context>
<context>
    <name>StartSteps</name>
    <message>
        <source>&lt;b&gt;Start here.&lt;/b&gt; This gold set is still empty; three steps fill it (F1 explains each one):</source>
        <extracomment>(step, the table whose rows mean the step is done, the import it opens).</extracomment>
        <translation>&lt;b&gt;Pour commencer.&lt;/b&gt; Ce jeu de référence est encore vide ; trois étapes le remplissent (F1 explique chacune) :</translation>
    </message>
    <message>
        <source>Import the spreadsheet of questions (CSV, Excel or JSONL): one row per question, with its reference answer if you have it.</source>
        <translation>Importez le tableur des questions (CSV, Excel ou JSONL) : une ligne par question, avec sa réponse de référence si vous l&apos;avez.</translation>
    </message>
    <message>
        <source>Import the documents the assistant searches (a BEIR corpus, CSV, Excel, or a folder of PDF, Word, HTML, text files).</source>
        <translation>Importez les documents dans lesquels l’assistant cherche (un corpus BEIR, CSV, Excel, ou un dossier de fichiers PDF, Word, HTML, texte).</translation>
    </message>
    <message>
        <source>Import a run: what the RAG system retrieved and answered for each question (TREC, JSONL, Ragas, agent trajectories).</source>
        <translation>Importez une exécution : ce que le système RAG a trouvé et répondu pour chaque question (TREC, JSONL, Ragas, trajectoires d&apos;agent).</translation>
    </message>
    <message>
        <source>1. Import the Questions…</source>
        <translation>1. Importer les questions…</translation>
    </message>
    <message>
        <source>2. Import the Documents…</source>
        <translation>2. Importer les documents…</translation>
    </message>
    <message>
        <source>3. Import a Run…</source>
        <translation>3. Importer une exécution…</translation>
    </message>
    <message>
        <source>…or a Folder of Documents…</source>
        <translation>…ou un dossier de documents…</translation>
    </message>
    <message>
        <source>Hide These Steps</source>
        <translation>Masquer ces étapes</translation>
    </message>
    <message>
        <source>✓ done (%1)</source>
        <translation>✓ fait (%1)</translation>
    </message>
</context>
<context>
    <name>StateModel</name>
    <message>
        <source>Key</source>
        <translation>Clé</translation>
    </message>
    <message>
        <source>Expected</source>
        <translation>Attendu</translation>
    </message>
    <message>
        <source>Actual</source>
        <translation>Obtenu</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>Résultat</translation>
    </message>
</context>
<context>
    <name>StatusLine</name>
    <message>
        <source>No file open</source>
        <translation>Aucun fichier ouvert</translation>
    </message>
    <message>
        <source>Assessor: %1</source>
        <translation>Annotateur&#xa0;: %1</translation>
    </message>
    <message>
        <source>(asked at your first change)</source>
        <translation>(demandé à votre première modification)</translation>
    </message>
    <message>
        <source>counting judgments…</source>
        <translation>décompte des jugements…</translation>
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
    <message>
        <source>assignment: %1 / %2 done</source>
        <translation>affectation : %1 / %2 faites</translation>
    </message>
    <message>
        <source>%1 judged / %2 unjudged pairs</source>
        <translation>%1 paires jugées / %2 non jugées</translation>
    </message>
    <message numerus="yes">
        <source>%Ln claim(s) unverified</source>
        <translation>
            <numerusform>%Ln affirmation non vérifiée</numerusform>
            <numerusform>%Ln affirmations non vérifiées</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>StepsModel</name>
    <message>
        <source>#</source>
        <translation>N°</translation>
    </message>
    <message>
        <source>Tool</source>
        <translation>Outil</translation>
    </message>
    <message>
        <source>Arguments</source>
        <translation>Arguments</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>Résultat</translation>
    </message>
    <message>
        <source>Broken check</source>
        <translation>Contrôle violé</translation>
    </message>
</context>
<context>
    <name>StructuredPanel</name>
    <message>
        <source>equal</source>
        <extracomment>Outcome → (symbol, word, colour role of ui/look/colours.py). The word is translated in this class&apos;s context.</extracomment>
        <translation>égal</translation>
    </message>
    <message>
        <source>differs</source>
        <translation>diffère</translation>
    </message>
    <message>
        <source>missing</source>
        <translation>absent</translation>
    </message>
    <message>
        <source>not supported</source>
        <translation>non étayé</translation>
    </message>
    <message>
        <source>source not provided</source>
        <translation>source non fournie</translation>
    </message>
    <message>
        <source>not executed</source>
        <translation>non exécuté</translation>
    </message>
    <message>
        <source>not checked yet</source>
        <translation>pas encore contrôlé</translation>
    </message>
    <message>
        <source>exact</source>
        <translation>exacte</translation>
    </message>
    <message>
        <source>number</source>
        <translation>nombre</translation>
    </message>
    <message>
        <source>date</source>
        <translation>date</translation>
    </message>
    <message>
        <source>normalised text</source>
        <translation>texte normalisé</translation>
    </message>
    <message>
        <source>one of</source>
        <translation>l&apos;une des valeurs</translation>
    </message>
</context>
<context>
    <name>TeamJob</name>
    <message>
        <source>Cancel</source>
        <extracomment>A job shorter than this never shows its progress dialog.</extracomment>
        <translation>Annuler</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>Annulation…</translation>
    </message>
</context>
<context>
    <name>TeamMenu</name>
    <message>
        <source>Collect Assignment Files</source>
        <translation>Récupérer les fichiers d’affectation</translation>
    </message>
    <message>
        <source>Collect every assignment file of a folder, or pick files?</source>
        <translation>Récupérer tous les fichiers d’affectation d’un dossier, ou choisir des fichiers ?</translation>
    </message>
    <message>
        <source>A &amp;Folder…</source>
        <translation>Un &amp;dossier…</translation>
    </message>
    <message>
        <source>&amp;Files…</source>
        <translation>Des &amp;fichiers…</translation>
    </message>
    <message>
        <source>Gold sets (*.goldset)</source>
        <translation>Jeux de référence (*.goldset)</translation>
    </message>
    <message>
        <source>%1: refused — %2</source>
        <translation>%1 : refusé — %2</translation>
    </message>
    <message>
        <source>%1 (%2): %3 added, %4 updated, %5 unchanged, %6 control repeats, %7 can’t judge, %8 conflicts</source>
        <translation>%1 (%2)&#xa0;: ajoutés %3, mis à jour %4, inchangés %5, répétitions de contrôle %6, impossibles à juger %7, conflits %8</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1 : %2</translation>
    </message>
    <message>
        <source>%1: skipped — %2</source>
        <translation>%1 : ignoré — %2</translation>
    </message>
    <message>
        <source>Skipped the master itself (it collects, it is not collected).</source>
        <translation>Fichier maître ignoré (il récupère, il n’est pas récupéré).</translation>
    </message>
    <message>
        <source>No assignment file found there.</source>
        <translation>Aucun fichier d’affectation trouvé à cet endroit.</translation>
    </message>
    <message>
        <source>Disputed pairs waiting in the adjudication queue (Judge → D): %1.</source>
        <translation>Paires en désaccord dans la file d’arbitrage (Juger → D) : %1.</translation>
    </message>
    <message>
        <source>Collect</source>
        <translation>Récupérer</translation>
    </message>
    <message>
        <source>%1: %2 pairs → %3</source>
        <translation>%1 : %2 paires → %3</translation>
    </message>
    <message>
        <source>%1: %2 claims → %3</source>
        <translation>%1 : %2 affirmations → %3</translation>
    </message>
    <message>
        <source>%1: %2 trajectories → %3</source>
        <translation>%1 : %2 trajectoires → %3</translation>
    </message>
    <message>
        <source>Hand Out Assignments</source>
        <translation>Distribuer les affectations</translation>
    </message>
    <message>
        <source>%1 pairs handed out; send each expert their file.</source>
        <translation>%1 paires distribuées ; envoyez à chaque expert son fichier.</translation>
    </message>
    <message>
        <source>%1 claims handed out; send each expert their file.</source>
        <translation>%1 affirmations distribuées ; envoyez à chaque expert son fichier.</translation>
    </message>
    <message>
        <source>%1 trajectories handed out; send each expert their file.</source>
        <translation>%1 trajectoires distribuées ; envoyez à chaque expert son fichier.</translation>
    </message>
    <message>
        <source>&amp;Team</source>
        <translation>É&amp;quipe</translation>
    </message>
    <message>
        <source>Handing out assignments…</source>
        <translation>Distribution des affectations…</translation>
    </message>
    <message>
        <source>Collecting assignment files…</source>
        <translation>Récupération des fichiers d’affectation…</translation>
    </message>
    <message>
        <source>Team Folder: where the experts&apos; files arrive</source>
        <translation>Dossier d’équipe : où arrivent les fichiers des experts</translation>
    </message>
</context>
<context>
    <name>TeamPanel</name>
    <message>
        <source>fast</source>
        <extracomment>How long a burst of file changes must settle before the folder is read again. Read the folder at least this often while the panel is shown.</extracomment>
        <translation>rapide</translation>
    </message>
    <message>
        <source>low agreement</source>
        <translation>accord faible</translation>
    </message>
    <message>
        <source>inconsistent</source>
        <translation>inconstant</translation>
    </message>
    <message>
        <source>Team (live from the team folder, read-only)</source>
        <translation>Équipe (en direct depuis le dossier d’équipe, en lecture seule)</translation>
    </message>
    <message>
        <source>Folder: %1</source>
        <translation>Dossier : %1</translation>
    </message>
    <message>
        <source>Judged</source>
        <translation>Jugées</translation>
    </message>
    <message>
        <source>Remaining</source>
        <translation>Restantes</translation>
    </message>
    <message>
        <source>Can’t judge</source>
        <translation>Impossibles à juger</translation>
    </message>
    <message>
        <source>Median s / judgment</source>
        <translation>s médianes / jugement</translation>
    </message>
    <message>
        <source>Cohen’s κ with the others</source>
        <translation>κ de Cohen avec les autres</translation>
    </message>
    <message>
        <source>Self-consistency</source>
        <translation>Constance</translation>
    </message>
    <message>
        <source>Flag</source>
        <translation>Signal</translation>
    </message>
    <message>
        <source>Krippendorff’s α over the team: %1 (%2 pairs judged by two or more). κ: mean of each assessor’s Cohen’s κ with each colleague, on the pairs both judged. Self-consistency: control pairs given the same label twice. A flag names an outlier: fast (median time under a third of the team’s), low agreement (κ more than 0.2 below the team’s median), inconsistent (under 67 % on 3 control pairs or more). — means not defined yet.</source>
        <translation>α de Krippendorff sur l’équipe : %1 (%2 paires jugées par deux ou plus). κ : moyenne des κ de Cohen de chaque annotateur avec chaque collègue, sur les paires jugées par les deux. Constance : paires de contrôle étiquetées deux fois de la même façon. Un signal nomme un cas atypique : rapide (temps médian sous le tiers de celui de l’équipe), accord faible (κ inférieur de plus de 0,2 à la médiane de l’équipe), inconstant (moins de 67 % sur 3 paires de contrôle ou plus). — signifie pas encore défini.</translation>
    </message>
    <message>
        <source>No assignment file has been read in this folder yet.</source>
        <translation>Aucun fichier d’affectation n’a encore été lu dans ce dossier.</translation>
    </message>
    <message>
        <source>%1: not read — %2</source>
        <translation>%1 : non lu — %2</translation>
    </message>
    <message>
        <source>claims to verify</source>
        <translation>affirmations à vérifier</translation>
    </message>
    <message>
        <source>trajectories to review</source>
        <translation>trajectoires à relire</translation>
    </message>
    <message>
        <source>Handed out</source>
        <translation>Travail confié</translation>
    </message>
    <message>
        <source>Assigned</source>
        <translation>Attribuées</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>Faites</translation>
    </message>
    <message>
        <source>claim verdicts</source>
        <translation>verdicts des affirmations</translation>
    </message>
    <message>
        <source>task success</source>
        <translation>réussite de la tâche</translation>
    </message>
    <message>
        <source>acceptable path</source>
        <translation>chemin acceptable</translation>
    </message>
    <message>
        <source>Krippendorff’s α on %1: %2 (%3 answered by two or more).</source>
        <translation>α de Krippendorff, %1&#xa0;: %2 (%3 éléments avec deux réponses ou plus).</translation>
    </message>
    <message>
        <source>κ here: mean of each assessor’s Cohen’s κ with each colleague on the items both answered (claim verdicts; for trajectories, task success).</source>
        <translation>κ ici&#xa0;: moyenne des κ de Cohen de chaque annotateur avec chaque collègue sur les éléments auxquels tous deux ont répondu (verdicts des affirmations&#xa0;; pour les trajectoires, réussite de la tâche).</translation>
    </message>
    <message numerus="yes">
        <source>%n timed judgment(s)</source>
        <translation>
            <numerusform>%n jugement chronométré</numerusform>
            <numerusform>%n jugements chronométrés</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TrajectoriesModel</name>
    <message>
        <source>Run</source>
        <extracomment>Columns of the list coloured by a verdict.</extracomment>
        <translation>Exécution</translation>
    </message>
    <message>
        <source>Case</source>
        <translation>Cas</translation>
    </message>
    <message>
        <source>Family</source>
        <translation>Famille</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>Étapes</translation>
    </message>
    <message>
        <source>Success</source>
        <translation>Succès</translation>
    </message>
    <message>
        <source>Path</source>
        <translation>Chemin</translation>
    </message>
    <message>
        <source>Review</source>
        <translation>Relecture</translation>
    </message>
    <message>
        <source>to review</source>
        <translation>à relire</translation>
    </message>
    <message>
        <source>overruled</source>
        <translation>infirmé</translation>
    </message>
    <message>
        <source>reviewed</source>
        <translation>relu</translation>
    </message>
    <message>
        <source>partly reviewed</source>
        <translation>relu en partie</translation>
    </message>
</context>
<context>
    <name>VerifySection</name>
    <message>
        <source>Run</source>
        <extracomment>Claims-table column hidden while verifying blind.</extracomment>
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
        <source>Others&apos; verdicts</source>
        <translation>Verdicts des autres</translation>
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
        <source>Evidence</source>
        <translation>Preuve</translation>
    </message>
    <message>
        <source>%1 p. %2</source>
        <translation>%1 p. %2</translation>
    </message>
    <message>
        <source>Why this verdict (W to write; Enter saves)</source>
        <translation>Pourquoi ce verdict (W pour écrire&#xa0;; Entrée enregistre)</translation>
    </message>
    <message>
        <source>Marker</source>
        <translation>Marqueur</translation>
    </message>
    <message>
        <source>Document</source>
        <translation>Document</translation>
    </message>
    <message>
        <source>Supports it</source>
        <translation>L&apos;étaye</translation>
    </message>
    <message>
        <source>Rights</source>
        <translation>Droits</translation>
    </message>
    <message>
        <source>Answer review</source>
        <translation>Revue de réponse</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Valeur</translation>
    </message>
    <message>
        <source>Claim (F2)</source>
        <translation>Affirmation (F2)</translation>
    </message>
    <message>
        <source>Rationale (W)</source>
        <translation>Justification (W)</translation>
    </message>
    <message>
        <source>Structured answer (D)</source>
        <translation>Sortie structurée (D)</translation>
    </message>
    <message>
        <source>All answers (O)</source>
        <translation>Toutes les réponses (O)</translation>
    </message>
    <message>
        <source>No run has generated answers in this gold set yet: import a run with its answers to verify them claim by claim.</source>
        <translation>Aucune exécution n&apos;a encore de réponses générées dans ce jeu de référence&#xa0;: importez une exécution avec ses réponses pour les vérifier affirmation par affirmation.</translation>
    </message>
    <message>
        <source>claim %1 of %2</source>
        <translation>affirmation %1 sur %2</translation>
    </message>
    <message>
        <source>no claim</source>
        <translation>aucune affirmation</translation>
    </message>
    <message numerus="yes">
        <source>%n claim(s) left to verify in the sample</source>
        <translation>
            <numerusform>%n affirmation reste à vérifier dans l&apos;échantillon</numerusform>
            <numerusform>%n affirmations restent à vérifier dans l&apos;échantillon</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n claim(s) left to verify in all runs</source>
        <translation>
            <numerusform>%n affirmation reste à vérifier dans toutes les exécutions</numerusform>
            <numerusform>%n affirmations restent à vérifier dans toutes les exécutions</numerusform>
        </translation>
    </message>
    <message>
        <source>The run retrieved no document for this case.</source>
        <translation>L&apos;exécution n&apos;a retrouvé aucun document pour ce cas.</translation>
    </message>
    <message>
        <source>role %1 may not read this document</source>
        <extracomment>Structures kept (a run retrieves tens of documents per case).</extracomment>
        <translation>le rôle %1 n&apos;a pas le droit de lire ce document</translation>
    </message>
    <message>
        <source>Context %1 of %2 (rank %3): </source>
        <translation>Contexte %1 sur %2 (rang %3)&#xa0;: </translation>
    </message>
    <message>
        <source>Context %1 of %2 (cited, not retrieved): </source>
        <translation>Contexte %1 sur %2 (cité, non retrouvé)&#xa0;: </translation>
    </message>
    <message>
        <source>Select some words in the context first (mouse, or Shift with the arrow keys), then press E.</source>
        <translation>Sélectionnez d&apos;abord des mots dans le contexte (à la souris, ou Maj avec les flèches), puis appuyez sur E.</translation>
    </message>
    <message>
        <source>set by another (B)</source>
        <translation>donné par un autre (B)</translation>
    </message>
    <message>
        <source>⚠ role %1 may not read it</source>
        <translation>⚠ le rôle %1 n&apos;a pas le droit de le lire</translation>
    </message>
    <message>
        <source>anyone</source>
        <translation>tout le monde</translation>
    </message>
    <message>
        <source>This answer has no citation to check.</source>
        <translation>Cette réponse n&apos;a aucune citation à vérifier.</translation>
    </message>
    <message>
        <source>No automatic judge&apos;s verdicts in this file yet: import them with rag-annotator import FILE ragchecker (or ragas-verdicts, deepeval-verdicts) SOURCE --run RUN.</source>
        <translation>Pas encore de verdicts de juge automatique dans ce fichier&#xa0;: importez-les avec rag-annotator import FILE ragchecker (ou ragas-verdicts, deepeval-verdicts) SOURCE --run RUN.</translation>
    </message>
    <message>
        <source>Add a claim</source>
        <translation>Ajouter une affirmation</translation>
    </message>
    <message>
        <source>Claim (or select words in the answer before pressing Ctrl+Shift+A):</source>
        <translation>Affirmation (ou sélectionnez des mots dans la réponse avant d&apos;appuyer sur Ctrl+Maj+A)&#xa0;:</translation>
    </message>
    <message>
        <source>Evidence: page %1, characters %2–%3.</source>
        <translation>Preuve : page %1, caractères %2–%3.</translation>
    </message>
    <message>
        <source>factual error</source>
        <extracomment>Colour role (ui/look/colours.py) of a claim in the answer by verdict (None: unverified); the current claim is drawn with the strong variant, underlined and bold. What tells a claim&apos;s verdict in the answer without its colour (a reader who does not see the colours, a grey-scale print): a contradicted claim is struck through, an unsupported one in italics; Qt&apos;s rich text knows no dotted or wavy underline. Failure categories of DESIGN section 4, as the review list names them.</extracomment>
        <translation>erreur factuelle</translation>
    </message>
    <message>
        <source>unsupported claim</source>
        <translation>affirmation non étayée</translation>
    </message>
    <message>
        <source>non-justifying citation</source>
        <translation>citation non justificative</translation>
    </message>
    <message>
        <source>outdated source</source>
        <translation>source obsolète</translation>
    </message>
    <message>
        <source>unauthorised source</source>
        <translation>source non autorisée</translation>
    </message>
    <message>
        <source>unwarranted abstention</source>
        <translation>abstention injustifiée</translation>
    </message>
    <message>
        <source>missing abstention</source>
        <translation>abstention manquante</translation>
    </message>
    <message>
        <source>forbidden content</source>
        <translation>contenu interdit</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>oui</translation>
    </message>
    <message>
        <source>retrieved: %1</source>
        <translation>récupéré : %1</translation>
    </message>
    <message>
        <source>cited: %1</source>
        <translation>cité : %1</translation>
    </message>
    <message>
        <source>Three outcomes, kept apart</source>
        <translation>Trois issues, séparées</translation>
    </message>
    <message>
        <source>wrong answer</source>
        <translation>réponse erronée</translation>
    </message>
    <message>
        <source>missing evidence</source>
        <translation>absence de preuve</translation>
    </message>
    <message>
        <source>out-of-scope exposure</source>
        <translation>exposition hors périmètre</translation>
    </message>
    <message>
        <source>partly</source>
        <translation>en partie</translation>
    </message>
    <message>
        <source>no</source>
        <translation>non</translation>
    </message>
    <message>
        <source>nothing listed</source>
        <extracomment>lupdate finds ``translate(&quot;VerifySection&quot;, &quot;literal&quot;)`` calls (not in f-strings).</extracomment>
        <translation>aucun élément</translation>
    </message>
    <message>
        <source>Reference answer</source>
        <translation>Réponse de référence</translation>
    </message>
    <message>
        <source>none</source>
        <translation>aucune</translation>
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
        <source>Expected behaviour</source>
        <translation>Comportement attendu</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>Rôle</translation>
    </message>
    <message>
        <source>present</source>
        <translation>présent</translation>
    </message>
    <message>
        <source>answered</source>
        <translation>a répondu</translation>
    </message>
    <message>
        <source>abstained</source>
        <translation>s&apos;est abstenu</translation>
    </message>
    <message>
        <source>escalated</source>
        <translation>a escaladé</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>Issue</translation>
    </message>
    <message>
        <source>Validated</source>
        <translation>Validée</translation>
    </message>
    <message>
        <source>Failure: %1</source>
        <translation>Échec&#xa0;: %1</translation>
    </message>
    <message>
        <source>missing</source>
        <translation>manquant</translation>
    </message>
    <message>
        <source>Must contain: %1</source>
        <translation>Doit contenir&#xa0;: %1</translation>
    </message>
    <message>
        <source>absent</source>
        <translation>absent</translation>
    </message>
    <message>
        <source>Forbidden content</source>
        <translation>Contenu interdit</translation>
    </message>
</context>
<context>
    <name>Welcome</name>
    <message>
        <source>Open the &amp;Guide (F1)</source>
        <translation>Ouvrir le &amp;guide (F1)</translation>
    </message>
    <message>
        <source>Create &amp;My Own Gold Set…</source>
        <translation>Créer &amp;mon jeu de référence…</translation>
    </message>
    <message>
        <source>Close the Welcome</source>
        <translation>Fermer l&apos;accueil</translation>
    </message>
    <message>
        <source>Welcome to rag-annotator.</source>
        <translation>Bienvenue dans rag-annotator.</translation>
    </message>
    <message>
        <source>This is a sample gold set — the HR questions of a fictional company, with two runs to judge and verify — for you to try everything on: your own files are not touched.</source>
        <translation>Voici un jeu de référence d&apos;exemple — les questions RH d&apos;une entreprise fictive, avec deux exécutions à juger et à vérifier — pour tout essayer&#xa0;: vos propres fichiers n&apos;y sont pour rien.</translation>
    </message>
    <message>
        <source>Press &lt;b&gt;F1&lt;/b&gt; at any time for the guide, at the page of the section you are in; &lt;b&gt;?&lt;/b&gt; lists the keyboard shortcuts.</source>
        <translation>Appuyez sur &lt;b&gt;F1&lt;/b&gt; à tout moment pour ouvrir le guide à la page de la section où vous êtes&#xa0;; &lt;b&gt;?&lt;/b&gt; liste les raccourcis clavier.</translation>
    </message>
    <message>
        <source>Your name is asked the first time you record a judgment or a change. Your own gold sets and exports go to your Documents folder unless you choose another.</source>
        <translation>Votre nom vous est demandé la première fois que vous enregistrez un jugement ou une modification. Vos jeux de référence et vos exports vont dans votre dossier Documents, sauf si vous en choisissez un autre.</translation>
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
        <source>View</source>
        <translation>Affichage</translation>
    </message>
    <message>
        <source>Gold set section</source>
        <translation>Section Jeu de référence</translation>
    </message>
    <message>
        <source>Judging (Judge section)</source>
        <translation>Jugement (section Juger)</translation>
    </message>
    <message>
        <source>Verifying (Verify section)</source>
        <translation>Vérification (section Vérifier)</translation>
    </message>
    <message>
        <source>Documents: pages and passages (Judge, Verify, Corpus, expected sources)</source>
        <translation>Documents : pages et passages (Juger, Vérifier, Corpus, sources attendues)</translation>
    </message>
    <message>
        <source>Reviewing agents (Agents section)</source>
        <translation>Relecture des agents (section Agents)</translation>
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
        <source>Merge a Colleague’s File…</source>
        <translation>Fusionner le fichier d&apos;un collègue…</translation>
    </message>
    <message>
        <source>Restore from Backup…</source>
        <translation>Restaurer depuis une sauvegarde…</translation>
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
        <source>Judging Guidelines…</source>
        <translation>Consignes de jugement…</translation>
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
        <source>Can’t judge (with a reason)…</source>
        <translation>Impossible à juger (avec une raison)…</translation>
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
        <source>Agents</source>
        <translation>Agents</translation>
    </message>
    <message>
        <source>Next case</source>
        <translation>Cas suivant</translation>
    </message>
    <message>
        <source>Previous case</source>
        <translation>Cas précédent</translation>
    </message>
    <message>
        <source>Next pair that settles a metric</source>
        <translation>Paire suivante qui détermine une métrique</translation>
    </message>
    <message>
        <source>Note on this pair</source>
        <translation>Note sur cette paire</translation>
    </message>
    <message>
        <source>Show others&apos; labels</source>
        <translation>Afficher les jugements des autres</translation>
    </message>
    <message>
        <source>Show the reference answer</source>
        <translation>Afficher la réponse de référence</translation>
    </message>
    <message>
        <source>Show the guidelines</source>
        <translation>Afficher les consignes</translation>
    </message>
    <message>
        <source>Adjudication queue</source>
        <translation>File d&apos;arbitrage</translation>
    </message>
    <message>
        <source>Sample review queue</source>
        <translation>File de revue de l’échantillon</translation>
    </message>
    <message>
        <source>Choose the Pool…</source>
        <translation>Choisir le pool…</translation>
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
    <message>
        <source>Switch the Unjudged-Document Policy</source>
        <translation>Changer de politique pour les documents non jugés</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>Exporter…</translation>
    </message>
    <message>
        <source>New case</source>
        <translation>Nouveau cas</translation>
    </message>
    <message>
        <source>Next status (draft → reviewed → approved → retired)</source>
        <translation>Statut suivant (brouillon → relu → approuvé → retiré)</translation>
    </message>
    <message>
        <source>Previous status</source>
        <translation>Statut précédent</translation>
    </message>
    <message>
        <source>Go to the case list</source>
        <translation>Aller à la liste des cas</translation>
    </message>
    <message>
        <source>Go to the question</source>
        <translation>Aller à la question</translation>
    </message>
    <message>
        <source>Go to the reference answer (agent case: the expected final state)</source>
        <translation>Aller à la réponse de référence (cas agent&#xa0;: l&apos;état final attendu)</translation>
    </message>
    <message>
        <source>Go to must contain (agent case: the forbidden tools)</source>
        <translation>Aller à « doit contenir » (cas agent&#xa0;: les outils interdits)</translation>
    </message>
    <message>
        <source>Go to the tags</source>
        <translation>Aller aux étiquettes</translation>
    </message>
    <message>
        <source>Go to the notes</source>
        <translation>Aller aux notes</translation>
    </message>
    <message>
        <source>Add an expected source…</source>
        <translation>Ajouter une source attendue…</translation>
    </message>
    <message>
        <source>Remove the expected source (in the sources list)</source>
        <translation>Retirer la source attendue (dans la liste des sources)</translation>
    </message>
    <message>
        <source>Show the expected source, its passage highlighted (in the sources list)</source>
        <translation>Afficher la source attendue, son passage surligné (dans la liste des sources)</translation>
    </message>
    <message>
        <source>Write the note of the expected source (in the sources list)</source>
        <translation>Écrire la note de la source attendue (dans la liste des sources)</translation>
    </message>
    <message>
        <source>Change family, tags or status of the selected cases…</source>
        <translation>Modifier la famille, les étiquettes ou le statut des cas sélectionnés…</translation>
    </message>
    <message>
        <source>Delete the case</source>
        <translation>Supprimer le cas</translation>
    </message>
    <message>
        <source>Coverage grid…</source>
        <translation>Grille de couverture…</translation>
    </message>
    <message>
        <source>Review queue…</source>
        <translation>File de relecture…</translation>
    </message>
    <message>
        <source>Releases…</source>
        <translation>Versions publiées…</translation>
    </message>
    <message>
        <source>Output contract of the case (structured answers)…</source>
        <translation>Contrat de sortie du cas (sorties structurées)…</translation>
    </message>
    <message>
        <source>Import cases…</source>
        <translation>Importer des cas…</translation>
    </message>
    <message>
        <source>Import a generated test set (Ragas)…</source>
        <translation>Importer un jeu de test généré (Ragas)…</translation>
    </message>
    <message>
        <source>Import a corpus…</source>
        <translation>Importer un corpus…</translation>
    </message>
    <message>
        <source>Corpus: find in the document&apos;s text</source>
        <translation>Corpus&#xa0;: rechercher dans le texte du document</translation>
    </message>
    <message>
        <source>Corpus: rights matrix (documents × identities)</source>
        <translation>Corpus : matrice des droits (documents × identités)</translation>
    </message>
    <message>
        <source>Rights matrix: allow or forbid the cell&apos;s identity</source>
        <translation>Matrice des droits : autoriser ou interdire l&apos;identité de la cellule</translation>
    </message>
    <message>
        <source>Rights matrix: what if a group is removed…</source>
        <translation>Matrice des droits : et si un groupe était retiré…</translation>
    </message>
    <message>
        <source>Review queue: accept</source>
        <translation>File de relecture&#xa0;: accepter</translation>
    </message>
    <message>
        <source>Review queue: edit, then accept</source>
        <translation>File de relecture&#xa0;: modifier, puis accepter</translation>
    </message>
    <message>
        <source>Review queue: reject</source>
        <translation>File de relecture&#xa0;: rejeter</translation>
    </message>
    <message>
        <source>Review queue: next case</source>
        <translation>File de relecture&#xa0;: cas suivant</translation>
    </message>
    <message>
        <source>Review queue: previous case</source>
        <translation>File de relecture&#xa0;: cas précédent</translation>
    </message>
    <message>
        <source>Claim supported</source>
        <translation>Affirmation étayée</translation>
    </message>
    <message>
        <source>Claim not supported</source>
        <translation>Affirmation non étayée</translation>
    </message>
    <message>
        <source>Claim contradicted</source>
        <translation>Affirmation contredite</translation>
    </message>
    <message>
        <source>Claim back to unverified</source>
        <translation>Affirmation remise à non vérifiée</translation>
    </message>
    <message>
        <source>Next claim</source>
        <translation>Affirmation suivante</translation>
    </message>
    <message>
        <source>Previous claim</source>
        <translation>Affirmation précédente</translation>
    </message>
    <message>
        <source>Next answer</source>
        <translation>Réponse suivante</translation>
    </message>
    <message>
        <source>Previous answer</source>
        <translation>Réponse précédente</translation>
    </message>
    <message>
        <source>Show others&apos; and judges&apos; verdicts</source>
        <translation>Afficher les verdicts des autres et des juges</translation>
    </message>
    <message>
        <source>Write the rationale</source>
        <translation>Rédiger la justification</translation>
    </message>
    <message>
        <source>Edit the claim&apos;s text</source>
        <translation>Modifier le texte de l&apos;affirmation</translation>
    </message>
    <message>
        <source>Split the claim at the cursor</source>
        <translation>Scinder l&apos;affirmation au curseur</translation>
    </message>
    <message>
        <source>Merge the claim with the next</source>
        <translation>Fusionner l&apos;affirmation avec la suivante</translation>
    </message>
    <message>
        <source>Delete the claim</source>
        <translation>Supprimer l&apos;affirmation</translation>
    </message>
    <message>
        <source>Add a claim</source>
        <translation>Ajouter une affirmation</translation>
    </message>
    <message>
        <source>Focus the claims, the context or the answer (to select words)</source>
        <translation>Passer aux affirmations, au contexte ou à la réponse (pour sélectionner des mots)</translation>
    </message>
    <message>
        <source>Previous context</source>
        <translation>Contexte précédent</translation>
    </message>
    <message>
        <source>Next context</source>
        <translation>Contexte suivant</translation>
    </message>
    <message>
        <source>Selected words are evidence</source>
        <translation>Les mots sélectionnés sont une preuve</translation>
    </message>
    <message>
        <source>Remove the last evidence</source>
        <translation>Retirer la dernière preuve</translation>
    </message>
    <message>
        <source>Next citation</source>
        <translation>Citation suivante</translation>
    </message>
    <message>
        <source>Citation supports it</source>
        <translation>La citation l&apos;étaye</translation>
    </message>
    <message>
        <source>Citation partly supports it</source>
        <translation>La citation l&apos;étaye en partie</translation>
    </message>
    <message>
        <source>Citation does not support it</source>
        <translation>La citation ne l&apos;étaye pas</translation>
    </message>
    <message>
        <source>List of all answers</source>
        <translation>Liste de toutes les réponses</translation>
    </message>
    <message>
        <source>Answer review</source>
        <translation>Revue de réponse</translation>
    </message>
    <message>
        <source>Change the review item</source>
        <translation>Changer l&apos;élément de revue</translation>
    </message>
    <message>
        <source>Agreement with a judge</source>
        <translation>Accord avec un juge</translation>
    </message>
    <message>
        <source>Structured answer (decisive fields)</source>
        <translation>Sortie structurée (champs décisifs)</translation>
    </message>
    <message>
        <source>Next decisive field</source>
        <translation>Champ décisif suivant</translation>
    </message>
    <message>
        <source>Previous decisive field</source>
        <translation>Champ décisif précédent</translation>
    </message>
    <message>
        <source>Confirm the field&apos;s outcome</source>
        <translation>Confirmer le résultat du champ</translation>
    </message>
    <message>
        <source>Overrule the field&apos;s outcome…</source>
        <translation>Infirmer le résultat du champ…</translation>
    </message>
    <message>
        <source>Check structured answers again</source>
        <translation>Contrôler à nouveau les sorties structurées</translation>
    </message>
    <message>
        <source>Draw a Review Sample…</source>
        <translation>Tirer un échantillon de revue…</translation>
    </message>
    <message>
        <source>Review a judge&apos;s sample (blind)</source>
        <translation>Revoir l&apos;échantillon d&apos;un juge (à l&apos;aveugle)</translation>
    </message>
    <message>
        <source>Accept the automatic checks, then the next trajectory to review</source>
        <translation>Accepter les contrôles automatiques, puis la trajectoire suivante à relire</translation>
    </message>
    <message>
        <source>Task success: yes</source>
        <translation>Succès de la tâche&#xa0;: oui</translation>
    </message>
    <message>
        <source>Task success: no</source>
        <translation>Succès de la tâche&#xa0;: non</translation>
    </message>
    <message>
        <source>Path acceptable: yes</source>
        <translation>Chemin acceptable&#xa0;: oui</translation>
    </message>
    <message>
        <source>Path acceptable: no</source>
        <translation>Chemin acceptable&#xa0;: non</translation>
    </message>
    <message>
        <source>Clear the review</source>
        <translation>Effacer la relecture</translation>
    </message>
    <message>
        <source>Write a note on the trajectory</source>
        <translation>Écrire une note sur la trajectoire</translation>
    </message>
    <message>
        <source>Next trajectory</source>
        <translation>Trajectoire suivante</translation>
    </message>
    <message>
        <source>Previous trajectory</source>
        <translation>Trajectoire précédente</translation>
    </message>
    <message>
        <source>Next trajectory to review</source>
        <translation>Trajectoire suivante à relire</translation>
    </message>
    <message>
        <source>Previous step of the timeline</source>
        <translation>Étape précédente de la chronologie</translation>
    </message>
    <message>
        <source>Next step of the timeline</source>
        <translation>Étape suivante de la chronologie</translation>
    </message>
    <message>
        <source>Only trajectories to review</source>
        <translation>Seulement les trajectoires à relire</translation>
    </message>
    <message>
        <source>Choose the run</source>
        <translation>Choisir l&apos;exécution</translation>
    </message>
    <message>
        <source>Hand Out Assignments…</source>
        <translation>Distribuer les affectations…</translation>
    </message>
    <message>
        <source>Collect…</source>
        <translation>Récupérer…</translation>
    </message>
    <message>
        <source>Team Folder…</source>
        <translation>Dossier d’équipe…</translation>
    </message>
    <message>
        <source>Guide (This Section’s Page)</source>
        <translation>Guide (page de cette section)</translation>
    </message>
    <message>
        <source>Larger Text</source>
        <translation>Texte plus grand</translation>
    </message>
    <message>
        <source>Smaller Text</source>
        <translation>Texte plus petit</translation>
    </message>
    <message>
        <source>Normal Text Size</source>
        <translation>Taille de texte normale</translation>
    </message>
    <message>
        <source>System Look</source>
        <translation>Apparence du système</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>Claire</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>Sombre</translation>
    </message>
    <message>
        <source>High Contrast</source>
        <translation>Contraste élevé</translation>
    </message>
    <message>
        <source>Next page of the document</source>
        <translation>Page suivante du document</translation>
    </message>
    <message>
        <source>Previous page of the document</source>
        <translation>Page précédente du document</translation>
    </message>
    <message>
        <source>Show the document&apos;s page or its text</source>
        <translation>Afficher la page du document ou son texte</translation>
    </message>
    <message>
        <source>On the page: select words (a word more or less, a line down or up)</source>
        <translation>Sur la page : sélectionner des mots (un mot de plus ou de moins, une ligne vers le bas ou le haut)</translation>
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
        <source>Before this first change: your name or initials, recorded with each of your judgments, verdicts and changes
(so several experts&apos; work can be compared and merged). It is kept for the next times (Settings → Assessor Name…).</source>
        <translation>Avant cette première modification&#xa0;: votre nom ou vos initiales, enregistrés avec chacun de vos jugements, verdicts et modifications
(pour comparer et fusionner le travail de plusieurs experts). Ils sont conservés pour les fois suivantes (Paramètres → Nom de l&apos;annotateur…).</translation>
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
    <name>export</name>
    <message>
        <source>Excel workbook for managers (.xlsx)</source>
        <extracomment>(choice id, registry format, CSV profile, title, writes a folder, needs a run)</extracomment>
        <translation>Classeur Excel pour les responsables (.xlsx)</translation>
    </message>
    <message>
        <source>One-page PDF summary for managers (.pdf)</source>
        <translation>Synthèse PDF d&apos;une page pour les responsables (.pdf)</translation>
    </message>
    <message>
        <source>CSV for Excel (folder)</source>
        <translation>CSV pour Excel (dossier)</translation>
    </message>
    <message>
        <source>CSV for data tools (folder)</source>
        <translation>CSV pour outils de données (dossier)</translation>
    </message>
    <message>
        <source>Native JSON, lossless (.json)</source>
        <translation>JSON natif, sans perte (.json)</translation>
    </message>
    <message>
        <source>TREC qrels (.txt)</source>
        <translation>qrels TREC (.txt)</translation>
    </message>
    <message>
        <source>TREC run (.txt)</source>
        <translation>Exécution TREC (.txt)</translation>
    </message>
    <message>
        <source>BEIR dataset (folder)</source>
        <translation>Jeu de données BEIR (dossier)</translation>
    </message>
    <message>
        <source>Ragas dataset (.jsonl)</source>
        <translation>Jeu de données Ragas (.jsonl)</translation>
    </message>
    <message>
        <source>RAGChecker input (.json)</source>
        <translation>Entrée RAGChecker (.json)</translation>
    </message>
    <message>
        <source>DeepEval goldens (.json)</source>
        <translation>Goldens DeepEval (.json)</translation>
    </message>
    <message>
        <source>%1 disputed pairs will be left out (adjudicate them first).</source>
        <translation>%1 paires contestées seront omises (arbitrez-les d&apos;abord).</translation>
    </message>
    <message>
        <source>Choose a run.</source>
        <translation>Choisissez une exécution.</translation>
    </message>
    <message>
        <source>Tables longer than 1,048,575 rows continue on further sheets.</source>
        <translation>Les tables de plus de 1 048 575 lignes continuent sur d&apos;autres feuilles.</translation>
    </message>
    <message>
        <source>%1: %2 rows hold a text longer than a cell holds (32,767 characters); it will be cut, with a visible mark.</source>
        <translation>%1 : %2 lignes contiennent un texte plus long qu&apos;une cellule (32 767 caractères) ; il sera coupé, avec une marque visible.</translation>
    </message>
    <message>
        <source>%1: %2 rows hold a text longer than Excel keeps in a cell; Excel will cut it when it opens the file.</source>
        <translation>%1 : %2 lignes contiennent un texte plus long qu&apos;Excel n&apos;en garde dans une cellule ; Excel le coupera à l&apos;ouverture du fichier.</translation>
    </message>
</context>
<context>
    <name>file_import</name>
    <message>
        <source>Gold Set from Native JSON…</source>
        <translation>Jeu de référence depuis le JSON natif…</translation>
    </message>
    <message>
        <source>Gold Set from a CSV Folder…</source>
        <translation>Jeu de référence depuis un dossier CSV…</translation>
    </message>
    <message>
        <source>Gold Set from an Excel Workbook…</source>
        <translation>Jeu de référence depuis un classeur Excel…</translation>
    </message>
    <message>
        <source>BEIR Folder (corpus, queries, qrels)…</source>
        <translation>Dossier BEIR (corpus, requêtes, qrels)…</translation>
    </message>
    <message>
        <source>DeepEval Goldens…</source>
        <translation>Goldens DeepEval…</translation>
    </message>
    <message>
        <source>Importing %1…</source>
        <translation>Importation de %1…</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>Annulation…</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>Import</translation>
    </message>
</context>
<context>
    <name>import</name>
    <message>
        <source>Id</source>
        <translation>Identifiant</translation>
    </message>
    <message>
        <source>Question</source>
        <translation>Question</translation>
    </message>
    <message>
        <source>Reference answer</source>
        <translation>Réponse de référence</translation>
    </message>
    <message>
        <source>Expected sources</source>
        <translation>Sources attendues</translation>
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
        <source>Family</source>
        <translation>Famille</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>Étiquettes</translation>
    </message>
    <message>
        <source>Variants</source>
        <translation>Variantes</translation>
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
        <source>Notes</source>
        <translation>Notes</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Statut</translation>
    </message>
    <message>
        <source>Author</source>
        <translation>Auteur</translation>
    </message>
    <message>
        <source>Kind (RAG or agent)</source>
        <translation>Nature (RAG ou agent)</translation>
    </message>
    <message>
        <source>Expected final state</source>
        <translation>État final attendu</translation>
    </message>
    <message>
        <source>Forbidden tools</source>
        <translation>Outils interdits</translation>
    </message>
    <message>
        <source>Required tools</source>
        <translation>Outils requis</translation>
    </message>
    <message>
        <source>Tool order</source>
        <translation>Ordre des outils</translation>
    </message>
    <message>
        <source>Max steps</source>
        <translation>Étapes max</translation>
    </message>
    <message>
        <source>Max tokens</source>
        <translation>Tokens max</translation>
    </message>
    <message>
        <source>Max seconds</source>
        <translation>Secondes max</translation>
    </message>
    <message>
        <source>Max cost</source>
        <translation>Coût max</translation>
    </message>
    <message>
        <source>Output contract (JSON)</source>
        <translation>Contrat de sortie (JSON)</translation>
    </message>
    <message>
        <source>Folder of documents (PDF, Word, OpenDocument, HTML, PowerPoint, RTF, Markdown, text)</source>
        <translation>Dossier de documents (PDF, Word, OpenDocument, HTML, PowerPoint, RTF, Markdown, texte)</translation>
    </message>
    <message>
        <source>Corpus files and documents (*.jsonl *.csv *.tsv *.xlsx *.pdf *.docx *.odt *.html *.htm *.pptx *.rtf *.md)</source>
        <translation>Fichiers de corpus et documents (*.jsonl *.csv *.tsv *.xlsx *.pdf *.docx *.odt *.html *.htm *.pptx *.rtf *.md)</translation>
    </message>
    <message>
        <source>Spreadsheets and JSON Lines (*.csv *.tsv *.txt *.xlsx *.jsonl)</source>
        <translation>Tableurs et JSON Lines (*.csv *.tsv *.txt *.xlsx *.jsonl)</translation>
    </message>
    <message>
        <source>Ragas test sets (*.jsonl *.json *.csv)</source>
        <translation>Jeux de test Ragas (*.jsonl *.json *.csv)</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>Importer</translation>
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
        <source>Test identity</source>
        <translation>Identité de test</translation>
    </message>
    <message>
        <source>Output contract</source>
        <translation>Contrat de sortie</translation>
    </message>
    <message>
        <source>Decisive field</source>
        <translation>Champ décisif</translation>
    </message>
    <message>
        <source>Structured answer check</source>
        <translation>Contrôle de sortie structurée</translation>
    </message>
    <message>
        <source>Decisive field outcome</source>
        <translation>Résultat d&apos;un champ décisif</translation>
    </message>
    <message>
        <source>Campaign</source>
        <translation>Campagne</translation>
    </message>
    <message>
        <source>Campaign assessor</source>
        <translation>Annotateur de la campagne</translation>
    </message>
    <message>
        <source>Assessor&apos;s queue</source>
        <translation>File d&apos;un évaluateur</translation>
    </message>
    <message>
        <source>Assessor&apos;s claim verdict</source>
        <translation>Verdict d&apos;un annotateur sur une affirmation</translation>
    </message>
    <message>
        <source>Assessor&apos;s trajectory review</source>
        <translation>Revue de trajectoire par un annotateur</translation>
    </message>
    <message>
        <source>Control repeat</source>
        <translation>Répétition de contrôle</translation>
    </message>
    <message>
        <source>Can&apos;t judge</source>
        <translation>Impossible à juger</translation>
    </message>
    <message>
        <source>Review sample of a judge</source>
        <translation>Échantillon de revue d&apos;un juge</translation>
    </message>
    <message>
        <source>Sampled unit</source>
        <translation>Unité tirée</translation>
    </message>
    <message>
        <source>Kept document file</source>
        <translation>Fichier de document conservé</translation>
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
        <source>Choose the judging pool</source>
        <translation>Choix du pool de jugement</translation>
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
        <source>Draw a review sample of a judge</source>
        <translation>Tirer un échantillon de revue d&apos;un juge</translation>
    </message>
    <message>
        <source>Set the output contract</source>
        <translation>Définir le contrat de sortie</translation>
    </message>
    <message>
        <source>Check structured answers</source>
        <translation>Contrôler les sorties structurées</translation>
    </message>
    <message>
        <source>Review a decisive field</source>
        <translation>Revoir un champ décisif</translation>
    </message>
    <message>
        <source>Hand out assignments</source>
        <translation>Distribution des affectations</translation>
    </message>
    <message>
        <source>Judge an assigned pair</source>
        <translation>Jugement d’une paire affectée</translation>
    </message>
    <message>
        <source>Collect an assignment file</source>
        <translation>Récupération d’un fichier d’affectation</translation>
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
    <message>
        <source>Judge verdict</source>
        <translation>Verdict d&apos;un juge</translation>
    </message>
    <message>
        <source>Case review</source>
        <translation>Relecture de cas</translation>
    </message>
    <message>
        <source>Trajectory</source>
        <translation>Trajectoire</translation>
    </message>
    <message>
        <source>Trajectory step</source>
        <translation>Étape de trajectoire</translation>
    </message>
    <message>
        <source>Trajectory review</source>
        <translation>Relecture de trajectoire</translation>
    </message>
    <message>
        <source>Import a file</source>
        <translation>Import d&apos;un fichier</translation>
    </message>
    <message>
        <source>Change the family of cases</source>
        <translation>Changement de famille des cas</translation>
    </message>
    <message>
        <source>Change the status of cases</source>
        <translation>Changement de statut des cas</translation>
    </message>
    <message>
        <source>Change the tags of cases</source>
        <translation>Changement d&apos;étiquettes des cas</translation>
    </message>
    <message>
        <source>Review a generated case</source>
        <translation>Relecture d&apos;un cas généré</translation>
    </message>
    <message>
        <source>Import cases</source>
        <translation>Import de cas</translation>
    </message>
    <message>
        <source>Import corpus</source>
        <translation>Import du corpus</translation>
    </message>
    <message>
        <source>Import a generated test set</source>
        <translation>Import d&apos;un jeu de test généré</translation>
    </message>
    <message>
        <source>Freeze a release</source>
        <translation>Gel d&apos;une version publiée</translation>
    </message>
    <message>
        <source>Start a new draft version</source>
        <translation>Début d&apos;une nouvelle version brouillon</translation>
    </message>
    <message>
        <source>Note on an expected source</source>
        <translation>Note sur une source attendue</translation>
    </message>
    <message>
        <source>New test identity</source>
        <translation>Nouvelle identité de test</translation>
    </message>
    <message>
        <source>Edit test identity</source>
        <translation>Modifier une identité de test</translation>
    </message>
    <message>
        <source>Delete test identity</source>
        <translation>Supprimer une identité de test</translation>
    </message>
    <message>
        <source>Change document rights</source>
        <translation>Modifier les droits d&apos;un document</translation>
    </message>
    <message>
        <source>Apply a rights change</source>
        <translation>Appliquer un changement de droits</translation>
    </message>
    <message>
        <source>Claim rationale</source>
        <translation>Justification d&apos;affirmation</translation>
    </message>
    <message>
        <source>Split claim</source>
        <translation>Scission d&apos;affirmation</translation>
    </message>
    <message>
        <source>Merge claims</source>
        <translation>Fusion d&apos;affirmations</translation>
    </message>
    <message>
        <source>Split answer into claims</source>
        <translation>Découpage de la réponse en affirmations</translation>
    </message>
    <message>
        <source>Add evidence</source>
        <translation>Ajout de preuve</translation>
    </message>
    <message>
        <source>Remove evidence</source>
        <translation>Retrait de preuve</translation>
    </message>
    <message>
        <source>Import a judge&apos;s verdicts</source>
        <translation>Import des verdicts d&apos;un juge</translation>
    </message>
    <message>
        <source>RAG (answer from documents)</source>
        <extracomment>Fields of an agent case (seed 000), in the form&apos;s order; text forms of ``domain.agents``. Fields only a RAG case uses: hidden while an agent case is shown (and the other way).</extracomment>
        <translation>RAG (réponse tirée des documents)</translation>
    </message>
    <message>
        <source>Agent (result and path)</source>
        <translation>Agent (résultat et chemin)</translation>
    </message>
    <message>
        <source>Import trajectories</source>
        <translation>Import de trajectoires</translation>
    </message>
    <message>
        <source>Review trajectory</source>
        <translation>Relecture de trajectoire</translation>
    </message>
    <message>
        <source>Confirm automatic checks</source>
        <translation>Confirmation des contrôles automatiques</translation>
    </message>
    <message>
        <source>Clear trajectory review</source>
        <translation>Effacement d&apos;une relecture de trajectoire</translation>
    </message>
</context>
</TS>
