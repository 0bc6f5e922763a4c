<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>SpecSummary</name>
    <message>
        <location filename="../app/jobs/specsummary.cpp" line="+101"/>
        <source>Name: %1</source>
        <translation>Name: %1</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>(unnamed)</source>
        <translation>(ohne Namen)</translation>
    </message>
    <message>
        <location line="-69"/>
        <source>Command: %1</source>
        <translation>Befehl: %1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 blocks, width %2, %3 heads, %4×%4 patches</source>
        <translation>%1 Blöcke, Breite %2, %3 Köpfe, %4×%4-Patches</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 blocks, width %2, %3 heads, context %4</source>
        <translation>%1 Blöcke, Breite %2, %3 Köpfe, Kontext %4</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Model: %1 %2</source>
        <translation>Modell: %1 %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source> — %1 layers, %2 parameters</source>
        <translation> — %1 Schichten, %2 Parameter</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Optimizer: adamw, learning rate %1, weight decay %2</source>
        <translation>Optimierer: adamw, Lernrate %1, Gewichtsabnahme %2</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>, cosine schedule</source>
        <translation>, Kosinus-Zeitplan</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>, %1 warm-up steps</source>
        <translation>, %1 Aufwärmschritte</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>, gradient norm clipped to %1</source>
        <translation>, Gradientennorm begrenzt auf %1</translation>
    </message>
    <message>
        <location line="+14"/>
        <source> (layers %1; %2 micro-batches, %3)</source>
        <translation> (Schichten %1; %2 Mikro-Batches, %3)</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>, ZeRO-1</source>
        <translation>, ZeRO-1</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Dataset: %1 (%2)</source>
        <translation>Datensatz: %1 (%2)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 epoch(s)</source>
        <translation>%1 Epoche(n)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>, at most %1 steps</source>
        <translation>, höchstens %1 Schritte</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Training: %1, global batch %2</source>
        <translation>Training: %1, globale Batch-Größe %2</translation>
    </message>
    <message>
        <location line="-44"/>
        <source>Optimizer: %1, learning rate %2, momentum %3, weight decay %4</source>
        <translation>Optimierer: %1, Lernrate %2, Momentum %3, Weight Decay %4</translation>
    </message>
    <message>
        <location line="+46"/>
        <source>Seed %1, metrics every %2 step(s)</source>
        <translation>Seed %1, Metriken alle %2 Schritt(e)</translation>
    </message>
    <message>
        <location line="-31"/>
        <source>Layout: data parallel %1, tensor parallel %2, %3 pipeline stage(s)</source>
        <translation>Aufteilung: Datenparallelität %1, Tensorparallelität %2, %3 Pipeline-Stufe(n)</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>World size: %1 rank(s)</source>
        <translation>World Size: %1 Rank(s)</translation>
    </message>
</context>
<context>
    <name>tessera::AppSession</name>
    <message>
        <location filename="../app/session.cpp" line="+20"/>
        <source>cannot open the history database &apos;%1&apos;</source>
        <translation>die Verlaufsdatenbank „%1“ lässt sich nicht öffnen</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>tessera quit and stopped it</source>
        <translation>tessera wurde beendet und hat ihn gestoppt</translation>
    </message>
</context>
<context>
    <name>tessera::Autopilot</name>
    <message>
        <location filename="../app/autopilot.cpp" line="+34"/>
        <source>gave up after %1 s (--timeout)</source>
        <translation>nach %1 s aufgegeben (--timeout)</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>job %1 ended (%2) before %3 loss points arrived: %4</source>
        <translation>Job %1 endete (%2), bevor %3 Loss-Punkte ankamen: %4</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>rent failed: %1</source>
        <translation>Anmieten fehlgeschlagen: %1</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>--launch: no valid spec selected (%1)</source>
        <translation>--launch: keine gültige Spezifikation gewählt (%1)</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The job needs %1 ranks but the cluster has 1 slot: rent more workers.</source>
        <translation>Der Job braucht %1 Ranks, der Cluster hat aber nur 1 Slot: mieten Sie weitere Worker.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The job needs %1 ranks but the cluster has %2 slots: rent more workers.</source>
        <translation>Der Job braucht %1 Ranks, der Cluster hat aber nur %2 Slots: mieten Sie weitere Worker.</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>cannot write the screenshot &apos;%1&apos;: check the folder exists and is writable</source>
        <translation>Bildschirmfoto „%1“ lässt sich nicht schreiben: prüfen Sie, ob der Ordner existiert und beschreibbar ist</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Autopilot stopped: %1</source>
        <translation>Autopilot angehalten: %1</translation>
    </message>
</context>
<context>
    <name>tessera::ClusterPanel</name>
    <message>
        <location filename="../app/cluster/clusterpanel.cpp" line="+23"/>
        <source>&amp;Rent local workers</source>
        <translation>Lokale Worker &amp;anmieten</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Re&amp;lease workers</source>
        <translation>Worker &amp;freigeben</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>How many tessera-worker daemons to start on this machine</source>
        <translation>Wie viele tessera-worker-Dienste auf diesem Rechner gestartet werden</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Ranks each worker runs</source>
        <translation>Ranks pro Worker</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Ctrl+R</source>
        <translation>Ctrl+R</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Start local tessera-worker daemons and add them to the cluster</source>
        <translation>Lokale tessera-worker-Dienste starten und dem Cluster hinzufügen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Ctrl+Shift+R</source>
        <translation>Ctrl+Shift+R</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stop every local worker</source>
        <translation>Alle lokalen Worker beenden</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Workers:</source>
        <translation>Worker:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Slots per worker:</source>
        <translation>Slots pro Worker:</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>No workers yet: rent local workers to start.</source>
        <translation>Noch keine Worker: mieten Sie lokale Worker an, um zu beginnen.</translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>Rented %n worker(s): %1</source>
        <translation>
            <numerusform>%n Worker angemietet: %1</numerusform>
            <numerusform>%n Worker angemietet: %1</numerusform>
        </translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Rent failed: %1</source>
        <translation>Anmieten fehlgeschlagen: %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Local workers released.</source>
        <translation>Lokale Worker freigegeben.</translation>
    </message>
    <message numerus="yes">
        <location line="+18"/>
        <source>Starting %n local worker(s)…</source>
        <translation>
            <numerusform>%n lokaler Worker wird gestartet …</numerusform>
            <numerusform>%n lokale Worker werden gestartet …</numerusform>
        </translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Releasing local workers…</source>
        <translation>Lokale Worker werden freigegeben …</translation>
    </message>
</context>
<context>
    <name>tessera::ClusterTableModel</name>
    <message>
        <location filename="../app/cluster/clustertablemodel.cpp" line="+104"/>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Address</source>
        <translation>Adresse</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Host</source>
        <translation>Host</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Slots</source>
        <translation>Slots</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Cores</source>
        <translation>Kerne</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Memory</source>
        <translation>Speicher</translation>
    </message>
</context>
<context>
    <name>tessera::JobPanel</name>
    <message>
        <location filename="../app/jobs/jobpanel.cpp" line="+25"/>
        <source>&amp;Launch</source>
        <translation>&amp;Starten</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Cancel</source>
        <translation>A&amp;bbrechen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Launch job</source>
        <translation>Job &amp;starten</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Cancel job</source>
        <translation>Job a&amp;bbrechen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Open spec…</source>
        <translation>Spezifikation ö&amp;ffnen …</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Ctrl+L</source>
        <translation>Ctrl+L</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Ctrl+Shift+X</source>
        <translation>Ctrl+Shift+X</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Ctrl+O</source>
        <translation>Ctrl+O</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Spec:</source>
        <translation>Spezifikation:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Job:</source>
        <translation>Job:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Progress:</source>
        <translation>Fortschritt:</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>none launched</source>
        <translation>keiner gestartet</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No example specs found in &apos;%1&apos;. Open a spec file (Ctrl+O) or set TESSERA_EXAMPLES_DIR.</source>
        <translation>Keine Beispiel-Spezifikationen in „%1“ gefunden. Öffnen Sie eine Spezifikationsdatei (Ctrl+O) oder setzen Sie TESSERA_EXAMPLES_DIR.</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Spec file &apos;%1&apos; does not exist; check the path.</source>
        <translation>Die Spezifikationsdatei „%1“ existiert nicht; prüfen Sie den Pfad.</translation>
    </message>
    <message>
        <location line="+42"/>
        <source>No valid spec selected: pick one from the list or open a file.</source>
        <translation>Keine gültige Spezifikation gewählt: wählen Sie eine aus der Liste oder öffnen Sie eine Datei.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Launch failed: %1</source>
        <translation>Start fehlgeschlagen: %1</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Submitted %1 as job %2.</source>
        <translation>%1 als Job %2 übergeben.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Cancelling job %1…</source>
        <translation>Job %1 wird abgebrochen …</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Open job spec</source>
        <translation>Job-Spezifikation öffnen</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Job specs (*.json)</source>
        <translation>Job-Spezifikationen (*.json)</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Cannot use this spec: %1</source>
        <translation>Diese Spezifikation ist nicht verwendbar: %1</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Job %1 failed: %2</source>
        <translation>Job %1 fehlgeschlagen: %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Job %1 %2.</source>
        <translation>Job %1: %2.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>step %1 · epoch %2 · loss %3 · %4 samples/s</source>
        <translation>Schritt %1 · Epoche %2 · Loss %3 · %4 Samples/s</translation>
    </message>
    <message>
        <location line="+10"/>
        <source> · test accuracy %1</source>
        <translation> · Testgenauigkeit %1</translation>
    </message>
</context>
<context>
    <name>tessera::LogPane</name>
    <message>
        <location filename="../app/monitor/logpane.cpp" line="+15"/>
        <source>Job output and cluster events appear here.</source>
        <translation>Job-Ausgaben und Cluster-Ereignisse erscheinen hier.</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>[%1] state → %2</source>
        <translation>[%1] Zustand → %2</translation>
    </message>
</context>
<context>
    <name>tessera::MainWindow</name>
    <message>
        <location filename="../app/mainwindow.cpp" line="+25"/>
        <source>Tessera</source>
        <translation>Tessera</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>History is off: %1</source>
        <translation>Verlauf ist aus: %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Rent local workers (Ctrl+R), pick a spec, then Launch (Ctrl+L).</source>
        <translation>Lokale Worker anmieten (Ctrl+R), Spezifikation wählen, dann starten (Ctrl+L).</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Cluster</source>
        <translation>Cluster</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Job</source>
        <translation>Job</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Log</source>
        <translation>Protokoll</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ctrl+Q</source>
        <translation>Ctrl+Q</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Cluster</source>
        <translation>&amp;Cluster</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Job</source>
        <translation>&amp;Job</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Main</source>
        <translation>Haupt</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>[%1] watch stream broke (%2); resuming from event %3</source>
        <translation>[%1] Beobachtungs-Stream unterbrochen (%2); weiter ab Ereignis %3</translation>
    </message>
</context>
<context>
    <name>tessera::MetricsChart</name>
    <message>
        <location filename="../app/monitor/metricschart.cpp" line="+25"/>
        <source>step</source>
        <translation>Schritt</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>loss</source>
        <translation>Loss</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+16"/>
        <source>test accuracy</source>
        <translation>Testgenauigkeit</translation>
    </message>
    <message>
        <location line="-9"/>
        <source>train loss</source>
        <translation>Trainings-Loss</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>test loss</source>
        <translation>Test-Loss</translation>
    </message>
</context>
</TS>
