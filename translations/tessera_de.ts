<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>BackendClient</name>
    <message>
        <location filename="../backend/service/backendclient.cpp" line="+41"/>
        <source>the server at %1 refused: %2</source>
        <translation>der Server unter %1 hat abgelehnt: %2</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>the backend at %1 did not answer: %2</source>
        <translation>das Backend unter %1 hat nicht geantwortet: %2</translation>
    </message>
</context>
<context>
    <name>DataFolderLock</name>
    <message>
        <location line="+171"/>
        <source>%1 owns the data folder but did not hand it over (%2): stop it (systemctl --user stop tessera-backend, or kill %3) and start again</source>
        <translation>%1 hat den Datenordner, hat ihn aber nicht übergeben (%2): beenden Sie es (systemctl --user stop tessera-backend oder kill %3) und starten Sie erneut</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>%1 agreed to hand the data folder over but still holds it after %2 s: stop it (systemctl --user stop tessera-backend, or kill %3) and start again</source>
        <translation>%1 hat der Übergabe des Datenordners zugestimmt, hält ihn aber nach %2 s noch: beenden Sie es (systemctl --user stop tessera-backend oder kill %3) und starten Sie erneut</translation>
    </message>
    <message>
        <location filename="../backend/service/datafolderlock.cpp" line="+24"/>
        <source>it is a symbolic link (remove it; Tessera makes its own)</source>
        <translation>es ist ein symbolischer Link (entfernen Sie ihn; Tessera legt einen eigenen an)</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>cannot create the data folder %1 (is its parent writable, and a folder?)</source>
        <translation>der Datenordner %1 kann nicht angelegt werden (ist sein übergeordneter Ordner beschreibbar und ein Ordner?)</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>the tessera-server at %1</source>
        <translation>der tessera-server unter %1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>tessera-ctl serve</source>
        <translation>tessera-ctl serve</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the Tessera window</source>
        <translation>das Tessera-Fenster</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>tessera-server</source>
        <translation>tessera-server</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+54"/>
        <source>another process</source>
        <translation>ein anderer Prozess</translation>
    </message>
    <message>
        <location line="-53"/>
        <source>%1 (pid %2)</source>
        <translation>%1 (PID %2)</translation>
    </message>
    <message>
        <location line="+32"/>
        <location line="+64"/>
        <source>cannot open the lock file %1: %2</source>
        <translation>die Sperrdatei %1 kann nicht geöffnet werden: %2</translation>
    </message>
    <message>
        <location line="-53"/>
        <source>cannot lock %1: %2</source>
        <translation>%1 kann nicht gesperrt werden: %2</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>the data folder %1 is owned by %2</source>
        <translation>der Datenordner %1 gehört %2</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>cannot write the lock file %1: %2</source>
        <translation>die Sperrdatei %1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <location line="+44"/>
        <source>%1 serves %2 already</source>
        <translation>%1 bedient %2 bereits</translation>
    </message>
</context>
<context>
    <name>DeviceTelemetry</name>
    <message>
        <location filename="../app/monitor/devicetelemetry.cpp" line="+79"/>
        <source>rank %1: stage %2</source>
        <translation>Rank %1: Stufe %2</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>, dp %1, tp %2</source>
        <translation>, DP %1, TP %2</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>… and %1 more ranks</source>
        <translation>… und %1 weitere Ranks</translation>
    </message>
</context>
<context>
    <name>MeasuredTimeline</name>
    <message>
        <location filename="../app/monitor/measuredtimeline.cpp" line="+47"/>
        <source>a record of rank %1 names no stage (ignored)</source>
        <translation>ein Datensatz von Rank %1 nennt keine Stufe (ignoriert)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>a record of rank %1 for stage %2, which the layout does not have (ignored)</source>
        <translation>ein Datensatz von Rank %1 für Stufe %2, die das Layout nicht hat (ignoriert)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>the record of stage %1 has no anchor_us (ignored)</source>
        <translation>der Datensatz von Stufe %1 hat kein anchor_us (ignoriert)</translation>
    </message>
    <message>
        <location line="+69"/>
        <source>stage %1: the record has no micro_batches</source>
        <translation>Stufe %1: der Datensatz hat kein micro_batches</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>stage %1: %2 of %3 forward/backward ops missing or invalid</source>
        <translation>Stufe %1: %2 von %3 Vorwärts-/Rückwärtsschritten fehlen oder sind ungültig</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>stage %1 sent no timeline for step %2</source>
        <translation>Stufe %1 hat für Schritt %2 keinen Zeitverlauf gesendet</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>step %1 is incomplete so far (%2 of %3 stages)</source>
        <translation>Schritt %1 ist noch unvollständig (%2 von %3 Stufen)</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <location filename="../backend/service/backendserver_leases.cpp" line="+117"/>
        <source>budgets are US dollars from 0 (no cap) to 1,000,000</source>
        <translation>Budgets sind US-Dollar von 0 (keine Grenze) bis 1.000.000</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the node cap is 1 to 1,024, not %1</source>
        <translation>die Knotengrenze ist 1 bis 1.024, nicht %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the idle timeout is 60 s to 24 h, not %1 s</source>
        <translation>die Leerlaufzeit ist 60 s bis 24 h, nicht %1 s</translation>
    </message>
</context>
<context>
    <name>ServerAddress</name>
    <message>
        <location filename="../backend/client/serverconnection.cpp" line="+19"/>
        <source>this machine</source>
        <translation>dieser Rechner</translation>
    </message>
</context>
<context>
    <name>SpecSummary</name>
    <message>
        <location filename="../app/jobs/specsummary.cpp" line="+113"/>
        <source>Name: %1</source>
        <translation>Name: %1</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>(unnamed)</source>
        <translation>(ohne Namen)</translation>
    </message>
    <message>
        <location line="-79"/>
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
        <location line="+3"/>
        <source>, %1 warm-up steps</source>
        <translation>, %1 Aufwärmschritte</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>, gradient norm clipped to %1</source>
        <translation>, Gradientennorm begrenzt auf %1</translation>
    </message>
    <message>
        <location line="+21"/>
        <source> (layers %1; %2 micro-batches, %3)</source>
        <translation> (Schichten %1; %2 Mikro-Batches, %3)</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>, ZeRO-1</source>
        <translation>, ZeRO-1</translation>
    </message>
    <message>
        <location line="+9"/>
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
        <location line="+2"/>
        <source>Training: %1, global batch %2</source>
        <translation>Training: %1, globale Batch-Größe %2</translation>
    </message>
    <message>
        <location line="-55"/>
        <source>Optimizer: %1, learning rate %2, momentum %3, weight decay %4</source>
        <translation>Optimierer: %1, Lernrate %2, Momentum %3, Weight Decay %4</translation>
    </message>
    <message>
        <location line="+57"/>
        <source>Seed %1, metrics every %2 step(s)</source>
        <translation>Seed %1, Metriken alle %2 Schritt(e)</translation>
    </message>
    <message>
        <location line="-39"/>
        <source>Layout: data parallel %1, tensor parallel %2, %3 pipeline stage(s)</source>
        <translation>Aufteilung: Datenparallelität %1, Tensorparallelität %2, %3 Pipeline-Stufe(n)</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>World size: %1 rank(s)</source>
        <translation>World Size: %1 Rank(s)</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <location filename="../app/main.cpp" line="+99"/>
        <source>%1. Close it first, or start this one with another data folder (--data-dir).</source>
        <translation>%1. Schließen Sie es zuerst, oder starten Sie dieses mit einem anderen Datenordner (--data-dir).</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Tessera</source>
        <translation>Tessera</translation>
    </message>
</context>
<context>
    <name>tessera::AddSshHostDialog</name>
    <message>
        <location filename="../app/rent/addsshhostdialog.cpp" line="+39"/>
        <location line="+118"/>
        <source>ssh-&lt;address&gt;</source>
        <translation>ssh-&lt;Adresse&gt;</translation>
    </message>
    <message>
        <location line="-117"/>
        <source>gpu-box.lan or me@10.0.0.5</source>
        <translation>gpu-box.lan oder ich@10.0.0.5</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>from Address, else your local user name</source>
        <translation>aus der Adresse, sonst Ihr lokaler Benutzername</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>optional: ssh-agent and ~/.ssh&apos;s keys</source>
        <translation>optional: ssh-agent und die Schlüssel in ~/.ssh</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>~/.ssh/known_hosts</source>
        <translation>~/.ssh/known_hosts</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>e.g. NVIDIA H100 80GB HBM3</source>
        <translation>z. B. NVIDIA H100 80GB HBM3</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Test connection</source>
        <translation>Verbindung &amp;testen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Accept host key</source>
        <translation>Host-Schlüssel &amp;annehmen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Re&amp;ject</source>
        <translation>Ab&amp;lehnen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Add SSH host</source>
        <translation>SSH-Host hinzufügen</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The host keys Tessera trusts for this machine. By default Tessera&apos;s own file beside the hosts file, so ~/.ssh stays as it is; name ~/.ssh/known_hosts to use the keys you trust already.</source>
        <translation>Die Host-Schlüssel, denen Tessera für diese Maschine vertraut. Standardmäßig Tesseras eigene Datei neben der Hosts-Datei, sodass ~/.ssh unverändert bleibt; geben Sie ~/.ssh/known_hosts an, um die Schlüssel zu nutzen, denen Sie schon vertrauen.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>none (CPU only)</source>
        <translation>keine (nur CPU)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source> GiB</source>
        <translation> GiB</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+3"/>
        <source>unknown</source>
        <translation>unbekannt</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>/h</source>
        <translation>/h</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>free (your own machine)</source>
        <translation>kostenlos (Ihre eigene Maschine)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Browse…</source>
        <translation>&amp;Durchsuchen …</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&amp;Name:</source>
        <translation>&amp;Name:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A&amp;ddress:</source>
        <translation>A&amp;dresse:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Port:</source>
        <translation>&amp;Port:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>SSH &amp;user:</source>
        <translation>SSH-&amp;Benutzer:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Identity file:</source>
        <translation>&amp;Schlüsseldatei:</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Known hosts file:</source>
        <translation>Datei bekannter &amp;Hosts:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;GPUs:</source>
        <translation>&amp;GPUs:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>GPU m&amp;odel:</source>
        <translation>GPU-M&amp;odell:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Memory per GPU:</source>
        <translation>&amp;Speicher pro GPU:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>CPU &amp;cores:</source>
        <translation>&amp;CPU-Kerne:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>P&amp;rice per hour:</source>
        <translation>P&amp;reis pro Stunde:</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Not tested yet. The test shows the machine&apos;s host key for you to check, then logs in.</source>
        <translation>Noch nicht getestet. Der Test zeigt den Host-Schlüssel der Maschine zur Prüfung und meldet sich dann an.</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Connection</source>
        <translation>Verbindung</translation>
    </message>
    <message>
        <location line="+122"/>
        <source>Settings changed: test the connection again.</source>
        <translation>Einstellungen geändert: Verbindung erneut testen.</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>%1 is not in %2 yet. Its host key fingerprints:</source>
        <translation>%1 steht noch nicht in %2. Die Fingerabdrücke seiner Host-Schlüssel:</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Host key already trusted in %1:</source>
        <translation>Host-Schlüssel wird in %1 bereits vertraut:</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>WARNING: these keys are not the ones %1 holds for this host:</source>
        <translation>WARNUNG: Diese Schlüssel sind nicht die, die %1 für diesen Host enthält:</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Accept only if one matches what the machine itself shows
(run there: ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub).</source>
        <translation>Nur annehmen, wenn einer mit dem übereinstimmt, was die Maschine selbst zeigt
(dort ausführen: ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub).</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Accepted and added to %1:</source>
        <translation>Angenommen und zu %1 hinzugefügt:</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Connected: %1.</source>
        <translation>Verbunden: %1.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Renting needs Linux and Open MPI there (Debian package openmpi-bin).</source>
        <translation>Zum Mieten braucht die Maschine Linux und Open MPI (Debian-Paket openmpi-bin).</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Private key for %1</source>
        <translation>Privater Schlüssel für %1</translation>
    </message>
</context>
<context>
    <name>tessera::AlertWatcher</name>
    <message>
        <location filename="../app/monitor/alertwatcher.cpp" line="+97"/>
        <source>the loss is %1 at step %2: training diverged; lower the learning rate or clip gradients (training.gradClip)</source>
        <translation>der Loss ist %1 in Schritt %2: das Training divergiert; senken Sie die Lernrate oder begrenzen Sie die Gradienten (training.gradClip)</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>the loss is diverging: smoothed %1 at step %2, %3× its lowest %4 at step %5</source>
        <translation>der Loss divergiert: geglättet %1 in Schritt %2, das %3-Fache seines Tiefstwerts %4 in Schritt %5</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>straggler: rank %1 (stage %2) computes %3 ms per step, %4× the median %5 ms of the other %6 rank(s) of its stage, %7 reports in a row; they wait for it</source>
        <translation>Nachzügler: Rank %1 (Stufe %2) rechnet %3 ms pro Schritt, das %4-Fache des Medians %5 ms der anderen %6 Rank(s) seiner Stufe, %7 Meldungen in Folge; sie warten auf ihn</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>no step for %1 s (the last, step %2, came at %3 UTC; the limit is %4 s): look at the log and the workers</source>
        <translation>seit %1 s kein Schritt (der letzte, Schritt %2, kam um %3 UTC; die Grenze ist %4 s): prüfen Sie das Protokoll und die Worker</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>no step for %1 s since the job started (the limit is %2 s): look at the log and the workers</source>
        <translation>seit dem Start des Jobs vor %1 s kein Schritt (die Grenze ist %2 s): prüfen Sie das Protokoll und die Worker</translation>
    </message>
</context>
<context>
    <name>tessera::Autopilot</name>
    <message>
        <location filename="../app/autopilot.cpp" line="+33"/>
        <source>gave up after %1 s (--timeout)</source>
        <translation>nach %1 s aufgegeben (--timeout)</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>job %1 ended (%2) before %3 loss points arrived: %4</source>
        <translation>Job %1 endete (%2), bevor %3 Loss-Punkte ankamen: %4</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>rent failed: %1</source>
        <translation>Anmieten fehlgeschlagen: %1</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>--launch: no valid spec selected (%1)</source>
        <translation>--launch: keine gültige Spezifikation gewählt (%1)</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>The job needs %1 ranks but the cluster has 1 slot: rent more workers.</source>
        <translation>Der Job braucht %1 Ranks, der Cluster hat aber nur 1 Slot: mieten Sie weitere Worker.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The job needs %1 ranks but the cluster has %2 slots: rent more workers.</source>
        <translation>Der Job braucht %1 Ranks, der Cluster hat aber nur %2 Slots: mieten Sie weitere Worker.</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>cannot write the screenshot &apos;%1&apos;: check the folder exists and is writable</source>
        <translation>Bildschirmfoto „%1“ lässt sich nicht schreiben: prüfen Sie, ob der Ordner existiert und beschreibbar ist</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Autopilot stopped: %1</source>
        <translation>Autopilot angehalten: %1</translation>
    </message>
</context>
<context>
    <name>tessera::AutoscaleSettingsDialog</name>
    <message>
        <location filename="../app/settings/autoscalesettings.cpp" line="+28"/>
        <source>Auto-provision</source>
        <translation>Automatisch mieten</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Rent the machines a launched job is missing, release them when idle</source>
        <translation>&amp;Maschinen mieten, die einem gestarteten Job fehlen, und freigeben, wenn sie ruhen</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>no cap</source>
        <translation>keine Grenze</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>/h</source>
        <translation>/h</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Bounds every rent, by hand in the Rent dialog and tessera-ctl too, not only auto-provision&apos;s</source>
        <translation>Begrenzt jede Miete, auch von Hand im Mietdialog und mit tessera-ctl, nicht nur die der automatischen Bereitstellung</translation>
    </message>
    <message>
        <location line="+6"/>
        <source> min</source>
        <translation> min</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Budget per &amp;hour (all leases):</source>
        <translation>Budget pro &amp;Stunde (alle Mieten):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Total budget (spent so far + the new nodes&apos; first hour):</source>
        <translation>&amp;Gesamtbudget (bisher ausgegeben + erste Stunde der neuen Knoten):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Node cap:</source>
        <translation>&amp;Höchstzahl Knoten:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Release after &amp;idle:</source>
        <translation>Freigeben nach &amp;Leerlauf:</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Every decision appears in the log.</source>
        <translation>Jede Entscheidung erscheint im Protokoll.</translation>
    </message>
    <message>
        <location line="+60"/>
        <source>Not changed: %1</source>
        <translation>Nicht geändert: %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>auto-provision settings not changed: %1</source>
        <translation>Einstellungen der automatischen Bereitstellung nicht geändert: %1</translation>
    </message>
</context>
<context>
    <name>tessera::Autoscaler</name>
    <message>
        <location filename="../backend/autoscale/autoscaler.cpp" line="+68"/>
        <source>adopted %1 (%2, %3): rented by the autoscaler before this start; released when idle past the idle timeout</source>
        <translation>%1 (%2, %3) übernommen: vor diesem Start von der automatischen Bereitstellung gemietet; wird nach Ablauf der Leerlaufzeit freigegeben</translation>
    </message>
    <message>
        <location line="+208"/>
        <source>%1 needs %2 rank(s) on %3: submitted as %4 on idle ready node(s) %5</source>
        <translation>%1 braucht %2 Rank(s) auf %3: als %4 auf den freien, bereiten Knoten %5 eingereicht</translation>
    </message>
    <message>
        <location line="+13"/>
        <location line="+50"/>
        <source>refused: %1</source>
        <translation>abgelehnt: %1</translation>
    </message>
    <message>
        <location line="-30"/>
        <source>renting %1 for %2 failed: %3</source>
        <translation>%1 für %2 zu mieten ist fehlgeschlagen: %3</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>auto-provision is off (Cluster → Auto-provision… rents replacements)</source>
        <translation>automatisches Mieten ist aus (Cluster → Automatisch mieten… mietet Ersatz)</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>%1 lost a worker: renting %2 node(s) for its %3 rank(s) on %4: %5</source>
        <translation>%1 hat einen Worker verloren: miete %2 Knoten für seine %3 Rank(s) auf %4: %5</translation>
    </message>
    <message>
        <location line="+17"/>
        <source> (memory not checked: %1)</source>
        <translation> (Speicher nicht geprüft: %1)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 needs %2 rank(s) on %3%4, idle ready nodes have %5 such slot(s): renting %6 node(s) for the missing %7: %8</source>
        <translation>%1 braucht %2 Rank(s) auf %3%4, freie bereite Knoten haben %5 solche Slot(s): miete %6 Knoten für die fehlenden %7: %8</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>%1 is ready: %2 (%3 more to wait for)</source>
        <translation>%1 ist bereit: %2 (noch %3 ausstehend)</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1 for %2 failed: %3</source>
        <translation>%1 für %2 fehlgeschlagen: %3</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>%1 could not be submitted: %2</source>
        <translation>%1 ließ sich nicht einreichen: %2</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>every node is ready: %1 submitted as %2 on %3</source>
        <translation>alle Knoten sind bereit: %1 als %2 auf %3 eingereicht</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>releasing %1 (%2): %3</source>
        <translation>%1 (%2) wird freigegeben: %3</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>budget: %1</source>
        <translation>Budget: %1</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1 stopped waiting: the budget is reached</source>
        <translation>%1 wartet nicht mehr: das Budget ist erreicht</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>its job stopped waiting (budget reached)</source>
        <translation>sein Job wartet nicht mehr (Budget erreicht)</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>idle while the budget is reached</source>
        <translation>im Leerlauf, während das Budget erreicht ist</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>idle for %1 s, timeout %2 s</source>
        <translation>seit %1 s im Leerlauf, Zeitlimit %2 s</translation>
    </message>
    <message>
        <location line="-63"/>
        <source>release of %1 failed: %2</source>
        <translation>Freigabe von %1 fehlgeschlagen: %2</translation>
    </message>
</context>
<context>
    <name>tessera::BackendServer</name>
    <message>
        <location filename="../backend/service/backendserver.cpp" line="+134"/>
        <source>the control socket %1 is longer than the 107 bytes a Unix socket path may have: use a shorter data folder (TESSERA_DATA_DIR)</source>
        <translation>der Steuer-Socket %1 ist länger als die 107 Bytes, die ein Unix-Socket-Pfad haben darf: verwenden Sie einen kürzeren Datenordner (TESSERA_DATA_DIR)</translation>
    </message>
    <message>
        <location line="+46"/>
        <source>cannot listen on the control socket %1 (is its folder writable?)</source>
        <translation>auf dem Steuer-Socket %1 kann nicht gelauscht werden (ist sein Ordner beschreibbar?)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>cannot listen on the control socket %1 and on %2 (is the folder writable, and the address this machine&apos;s and its port free?)</source>
        <translation>kann nicht am Steuer-Socket %1 und an %2 lauschen (ist der Ordner beschreibbar, die Adresse eine dieses Rechners und ihr Port frei?)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>cannot listen on %1: is the address this machine&apos;s and the port free?</source>
        <translation>kann nicht an %1 lauschen: ist die Adresse eine dieses Rechners und der Port frei?</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>the backend stopped following the job (it was closed or handed the data folder over); the job goes on</source>
        <translation>das Backend verfolgt den Job nicht mehr (es wurde geschlossen oder hat den Datenordner übergeben); der Job läuft weiter</translation>
    </message>
    <message>
        <location line="+9"/>
        <location line="+4"/>
        <location line="+2"/>
        <source>the backend stopped</source>
        <translation>das Backend wurde beendet</translation>
    </message>
    <message>
        <location line="+43"/>
        <source>the data folder %1 is in use by %2: close it first (or use another data folder, TESSERA_DATA_DIR)</source>
        <translation>der Datenordner %1 wird von %2 verwendet: schließen Sie es zuerst (oder verwenden Sie einen anderen Datenordner, TESSERA_DATA_DIR)</translation>
    </message>
    <message>
        <location filename="../backend/service/backendserver_jobs.cpp" line="+41"/>
        <source>%1, queued for the autoscaler</source>
        <translation>%1, wartet auf die automatische Bereitstellung</translation>
    </message>
    <message>
        <location line="+9"/>
        <location line="+52"/>
        <source>job %1 is not followed by this backend (`tessera-ctl status` lists the jobs)</source>
        <translation>Job %1 wird nicht von diesem Backend verfolgt (`tessera-ctl status` listet die Jobs)</translation>
    </message>
    <message>
        <location line="-46"/>
        <source>job %1 %2 already</source>
        <translation>Job %1 ist bereits %2</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>job %1 was started by %2: only %2 or an admin (server.json &quot;admins&quot;) may cancel it</source>
        <translation>Job %1 wurde von %2 gestartet: nur %2 oder ein Admin (server.json &quot;admins&quot;) darf ihn abbrechen</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>as an admin; started by %1</source>
        <translation>als Admin; gestartet von %1</translation>
    </message>
    <message>
        <location line="+55"/>
        <source>not followed by this backend now (its last recorded state)</source>
        <translation>wird von diesem Backend derzeit nicht verfolgt (sein zuletzt aufgezeichneter Zustand)</translation>
    </message>
    <message>
        <location filename="../backend/service/backendserver_leases.cpp" line="-67"/>
        <source>no such provider</source>
        <translation>kein solcher Anbieter</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>no provider &apos;%1&apos; (ListOffers names them)</source>
        <translation>kein Anbieter &apos;%1&apos; (ListOffers nennt sie)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>rent at most 64 nodes at once, not %1</source>
        <translation>höchstens 64 Knoten auf einmal anmieten, nicht %1</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 (after %2 of %3)</source>
        <translation>%1 (nach %2 von %3)</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>lease %1 was rented by %2: only %2 or an admin (server.json &quot;admins&quot;) may release it</source>
        <translation>Miete %1 wurde von %2 angemietet: nur %2 oder ein Admin (server.json &quot;admins&quot;) darf sie freigeben</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>as an admin; rented by %1</source>
        <translation>als Admin; angemietet von %1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>no lease %1 (WatchCluster lists them)</source>
        <translation>keine Miete %1 (WatchCluster listet sie)</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>%1, $%2/h, $%3 in total, %4 nodes, idle %5 s</source>
        <translation>%1, $%2/h, $%3 insgesamt, %4 Knoten, Leerlauf %5 s</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>the auto-provision policy is the cluster&apos;s: only an admin (server.json &quot;admins&quot;) may change it</source>
        <translation>die Regeln der automatischen Bereitstellung gelten für den ganzen Cluster: nur ein Admin (server.json &quot;admins&quot;) darf sie ändern</translation>
    </message>
</context>
<context>
    <name>tessera::BackendSession</name>
    <message>
        <location filename="../backend/service/backendsession.cpp" line="+132"/>
        <source>tessera quit and stopped it</source>
        <translation>Tessera wurde beendet und hat ihn gestoppt</translation>
    </message>
</context>
<context>
    <name>tessera::ChartCrosshair</name>
    <message>
        <location filename="../app/monitor/chartcrosshair.cpp" line="+54"/>
        <source>step %1</source>
        <translation>Schritt %1</translation>
    </message>
</context>
<context>
    <name>tessera::ChartExport</name>
    <message>
        <location filename="../app/monitor/chartexport.cpp" line="+32"/>
        <source>Export chart</source>
        <translation>Diagramm exportieren</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Export chart data</source>
        <translation>Diagrammdaten exportieren</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>PNG images (*.png)</source>
        <translation>PNG-Bilder (*.png)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>CSV files (*.csv)</source>
        <translation>CSV-Dateien (*.csv)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Export failed</source>
        <translation>Export fehlgeschlagen</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>Export chart as PNG…</source>
        <translation>Diagramm als PNG exportieren…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Export data as CSV…</source>
        <translation>Daten als CSV exportieren…</translation>
    </message>
</context>
<context>
    <name>tessera::CheckpointResume</name>
    <message>
        <location filename="../app/jobs/checkpointresume.cpp" line="+50"/>
        <source>its checkpoint folder &apos;%1&apos; is inside the job&apos;s folder on worker %2, which is not on this machine; resume it there with checkpoint.resumeFrom, or run it with an absolute checkpoint.dir</source>
        <translation>sein Checkpoint-Ordner „%1“ liegt im Job-Ordner auf Worker %2, der nicht auf diesem Rechner läuft; setzen Sie ihn dort mit checkpoint.resumeFrom fort oder starten Sie ihn mit einem absoluten checkpoint.dir</translation>
    </message>
    <message>
        <location line="+51"/>
        <source>its checkpoint is split over the workers&apos; own folders and %1 is not on this machine; run the job with checkpoint.dir set to a folder every worker shares to resume it</source>
        <translation>sein Checkpoint ist auf die eigenen Ordner der Worker verteilt, und %1 liegt nicht auf diesem Rechner; starten Sie den Job mit einem checkpoint.dir, das alle Worker teilen, um ihn fortsetzen zu können</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>the checkpoint file &apos;%1&apos; is missing; was the worker&apos;s folder cleaned?</source>
        <translation>die Checkpoint-Datei „%1“ fehlt; wurde der Ordner des Workers aufgeräumt?</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>cannot create the folder &apos;%1&apos;</source>
        <translation>der Ordner „%1“ lässt sich nicht anlegen</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>cannot copy &apos;%1&apos; to &apos;%2&apos;: %3</source>
        <translation>„%1“ lässt sich nicht nach „%2“ kopieren: %3</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>cannot rename &apos;%1&apos; to &apos;%2&apos;</source>
        <translation>„%1“ lässt sich nicht in „%2“ umbenennen</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>%1 (resumed from %2)</source>
        <translation>%1 (fortgesetzt von %2)</translation>
    </message>
</context>
<context>
    <name>tessera::CloudBar</name>
    <message>
        <location filename="../app/rent/cloudbar.cpp" line="+19"/>
        <source>%1 API &amp;key…</source>
        <translation>%1-API-&amp;Schlüssel…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Release &amp;lost instances</source>
        <translation>&amp;Verlorene Instanzen freigeben</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Give Tessera the API key of your %1 account (kept in a file only you can read)</source>
        <translation>Geben Sie Tessera den API-Schlüssel Ihres %1-Kontos (in einer Datei, die nur Sie lesen können)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Terminate the instances Tessera launched but no lease holds</source>
        <translation>Die Instanzen beenden, die Tessera gestartet hat, die aber keine Miete hält</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>%1: no API key yet — add one to see its GPUs and prices.</source>
        <translation>%1: noch kein API-Schlüssel — fügen Sie einen hinzu, um GPUs und Preise zu sehen.</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+36"/>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message numerus="yes">
        <location line="-33"/>
        <source>%1: %n instance type(s) listed.</source>
        <translation>
            <numerusform>%1: %n Instanztyp aufgeführt.</numerusform>
            <numerusform>%1: %n Instanztypen aufgeführt.</numerusform>
        </translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 (%2, %3, %4)</source>
        <translation>%1 (%2, %3, %4)</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>Tessera launched %n instance(s) that no lease holds, still billing: %1</source>
        <translation>
            <numerusform>Tessera hat %n Instanz gestartet, die keine Miete hält und weiter kostet: %1</numerusform>
            <numerusform>Tessera hat %n Instanzen gestartet, die keine Miete hält und weiter kosten: %1</numerusform>
        </translation>
    </message>
    <message>
        <location line="+11"/>
        <source>%1 API key</source>
        <translation>%1-API-Schlüssel</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>API key (from the console&apos;s API keys page):</source>
        <translation>API-Schlüssel (von der Seite „API keys“ der Konsole):</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1: storing the key…</source>
        <translation>%1: Schlüssel wird gespeichert…</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1: key stored; listing its offers…</source>
        <translation>%1: Schlüssel gespeichert; Angebote werden abgerufen…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Stored the %1 API key in %2.</source>
        <translation>%1-API-Schlüssel in %2 gespeichert.</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Terminating %1…</source>
        <translation>%1 wird beendet…</translation>
    </message>
</context>
<context>
    <name>tessera::ClusterPanel</name>
    <message>
        <location filename="../app/cluster/clusterpanel.cpp" line="+24"/>
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
    <message>
        <location line="+12"/>
        <source>%1 answers again.</source>
        <translation>%1 antwortet wieder.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 is unreachable: %2</source>
        <translation>%1 ist nicht erreichbar: %2</translation>
    </message>
    <message numerus="yes">
        <location line="+23"/>
        <source>Starting %n local worker(s)…</source>
        <translation>
            <numerusform>%n lokaler Worker wird gestartet …</numerusform>
            <numerusform>%n lokale Worker werden gestartet …</numerusform>
        </translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Releasing local workers…</source>
        <translation>Lokale Worker werden freigegeben …</translation>
    </message>
</context>
<context>
    <name>tessera::ClusterTableModel</name>
    <message>
        <location filename="../app/cluster/clustertablemodel.cpp" line="+114"/>
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
    <message>
        <location line="+2"/>
        <source>Problem</source>
        <translation>Problem</translation>
    </message>
</context>
<context>
    <name>tessera::CostLabel</name>
    <message>
        <location filename="../app/rent/costlabel.cpp" line="+15"/>
        <source>What the rented machines bill: per hour now, and since they were rented</source>
        <translation>Was die gemieteten Maschinen kosten: jetzt pro Stunde und seit der Miete</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Cluster $%1/h · $%2 so far</source>
        <translation>Cluster $%1/h · bisher $%2</translation>
    </message>
    <message>
        <location line="+5"/>
        <source> · budget nearly spent</source>
        <translation> · Budget fast aufgebraucht</translation>
    </message>
    <message>
        <location line="+2"/>
        <source> · budget reached</source>
        <translation> · Budget erreicht</translation>
    </message>
</context>
<context>
    <name>tessera::DeviceFit</name>
    <message>
        <location filename="../backend/provision/devicefit.cpp" line="+43"/>
        <source>%1 GiB</source>
        <translation>%1 GiB</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>GPU(s)</source>
        <translation>GPU(s)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>CPU slot(s)</source>
        <translation>CPU-Slot(s)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>slot(s)</source>
        <translation>Slot(s)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 with ≥ %2 each</source>
        <translation>%1 mit je ≥ %2</translation>
    </message>
    <message>
        <location line="+47"/>
        <source>%1: CPU only</source>
        <translation>%1: nur CPU</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1: %2 of RAM for %3 slot(s), %4 per rank needed</source>
        <translation>%1: %2 RAM für %3 Slot(s), %4 pro Rank nötig</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1: GPUs (%2), the layout trains on CPUs</source>
        <translation>%1: GPUs (%2), das Layout trainiert auf CPUs</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1: %2 has %3 per GPU, %4 needed</source>
        <translation>%1: %2 hat %3 pro GPU, %4 nötig</translation>
    </message>
</context>
<context>
    <name>tessera::FollowerLock</name>
    <message>
        <location filename="../backend/history/followerlock.cpp" line="+118"/>
        <source>its launcher, %1 (pid %2), ended before the job did (killed?), and its local cluster with it; noticed at %3</source>
        <translation>sein Starter, %1 (PID %2), endete vor dem Job (beendet?), und mit ihm sein lokaler Cluster; bemerkt um %3</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>not followed since its launcher, %1 (pid %2), ended before the job did (noticed at %3); it may still run on its workers: tessera-ctl attach %4 --workers A,B --token-file F follows it again</source>
        <translation>nicht mehr verfolgt, seit sein Starter, %1 (PID %2), vor dem Job endete (bemerkt um %3); er läuft vielleicht noch auf seinen Workern: tessera-ctl attach %4 --workers A,B --token-file F verfolgt ihn wieder</translation>
    </message>
</context>
<context>
    <name>tessera::GanttView</name>
    <message>
        <location filename="../app/gantt/ganttview.cpp" line="+123"/>
        <source>weight gradient</source>
        <translation>Gewichtsgradient</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>stage %1 · chunk %2 · micro-batch %3 · %4</source>
        <translation>Stufe %1 · Modellteil %2 · Micro-Batch %3 · %4</translation>
    </message>
    <message>
        <location line="+96"/>
        <source>W = weight gradient</source>
        <translation>W = Gewichtsgradient</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>F3.1 = micro-batch 3 of model chunk 1</source>
        <translation>F3.1 = Micro-Batch 3 von Modellteil 1</translation>
    </message>
    <message>
        <location line="-185"/>
        <source>No schedule to show: the layout needs a model and valid stages.</source>
        <translation>Kein Ablauf zu zeigen: das Layout braucht ein Modell und gültige Stufen.</translation>
    </message>
    <message>
        <location line="+83"/>
        <source>backward</source>
        <translation>rückwärts</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>forward</source>
        <translation>vorwärts</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>stage %1 · micro-batch %2 · %3</source>
        <translation>Stufe %1 · Micro-Batch %2 · %3</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>start %1 · length %2 (relative units)</source>
        <translation>Beginn %1 · Länge %2 (relative Einheiten)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>start %1 · duration %2</source>
        <translation>Beginn %1 · Dauer %2</translation>
    </message>
    <message>
        <location line="+56"/>
        <source>stage %1</source>
        <translation>Stufe %1</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>0 … %1 (compute only; F = forward, B = backward)</source>
        <translation>0 … %1 (nur Rechnen; F = vorwärts, B = rückwärts)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>relative time (F = forward, B = backward)</source>
        <translation>relative Zeit (F = vorwärts, B = rückwärts)</translation>
    </message>
</context>
<context>
    <name>tessera::HostKeys</name>
    <message>
        <location filename="../app/rent/hostkeys.cpp" line="+132"/>
        <source>cannot add the host key to the known hosts file %1: %2</source>
        <translation>der Host-Schlüssel lässt sich nicht zur Datei bekannter Hosts %1 hinzufügen: %2</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>its folder cannot be created</source>
        <translation>ihr Ordner lässt sich nicht anlegen</translation>
    </message>
</context>
<context>
    <name>tessera::JobController</name>
    <message>
        <location filename="../backend/jobs/jobcontroller.cpp" line="+68"/>
        <source>the drawn layout runs ranks on worker &apos;%1&apos;, which is not a Ready worker of this job: rent it again, or redraw the layout on the live cluster (Designer → Use live cluster)</source>
        <translation>das gezeichnete Layout legt Ranks auf Worker „%1“, der kein bereiter Worker dieses Jobs ist: mieten Sie ihn erneut oder zeichnen Sie das Layout auf dem echten Cluster neu (Designer → Echten Cluster verwenden)</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>the drawn placement names worker &apos;%1&apos; twice: a worker&apos;s ranks must be consecutive</source>
        <translation>die gezeichnete Platzierung nennt Worker „%1“ zweimal: die Ranks eines Workers müssen aufeinanderfolgen</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>the drawn layout gives worker &apos;%1&apos; %2 ranks but it has %3 usable slots now: redraw the layout on the live cluster</source>
        <translation>das gezeichnete Layout gibt Worker „%1“ %2 Ranks, er hat aber jetzt %3 nutzbare Slots: zeichnen Sie das Layout auf dem echten Cluster neu</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>the drawn placement has %1 ranks but the layout needs %2 (DP × PP × TP): redraw the layout</source>
        <translation>die gezeichnete Platzierung hat %1 Ranks, das Layout braucht aber %2 (DP × PP × TP): zeichnen Sie das Layout neu</translation>
    </message>
    <message>
        <location line="+40"/>
        <source>the job hung: %1; its processes are being stopped on every node</source>
        <translation>der Job hängt: %1; seine Prozesse werden auf allen Knoten beendet</translation>
    </message>
    <message>
        <location line="+49"/>
        <source>the layout trains on GPUs (layout.device cuda) and needs %1 of them, but the ready workers have %2: rent GPU machines (Cluster → Rent machines…), turn on auto-provision, or set layout.device to cpu</source>
        <translation>das Layout trainiert auf GPUs (layout.device cuda) und braucht %1 davon, die bereiten Worker haben aber %2: mieten Sie GPU-Maschinen (Cluster → Maschinen mieten …), schalten Sie die automatische Bereitstellung ein oder setzen Sie layout.device auf cpu</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>the job needs %1 ranks but the ready workers have %2 slots: rent more workers or wait until they are ready</source>
        <translation>der Job braucht %1 Ranks, die bereiten Worker haben aber %2 Slots: mieten Sie mehr Worker oder warten Sie, bis sie bereit sind</translation>
    </message>
    <message>
        <location line="+69"/>
        <source>cancelled before launch</source>
        <translation>vor dem Start abgebrochen</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>worker %1 left the cluster before the launch; rent workers and submit again</source>
        <translation>Worker %1 hat den Cluster vor dem Start verlassen; mieten Sie Worker und reichen Sie erneut ein</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>worker %1 left the cluster before the launch</source>
        <translation>Worker %1 hat den Cluster vor dem Start verlassen</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>cannot ship model.workdir: %1</source>
        <translation>model.workdir lässt sich nicht verteilen: %1</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>launch failed: %1</source>
        <translation>Start fehlgeschlagen: %1</translation>
    </message>
    <message>
        <location line="+44"/>
        <source>lost the job: rank 0&apos;s worker %1 stopped answering: %2</source>
        <translation>Job verloren: der Worker %1 von Rang 0 antwortet nicht mehr: %2</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>@tessera record not charted: %1 — %2%3</source>
        <translation>@tessera-Datensatz nicht gezeichnet: %1 — %2%3</translation>
    </message>
    <message>
        <location line="+66"/>
        <source>worker %1 died or stopped answering (%2); the job failed with it: %3</source>
        <translation>Worker %1 ist ausgefallen oder antwortet nicht mehr (%2); der Job ist mit ihm gescheitert: %3</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>cancelled while waiting for a replacement worker</source>
        <translation>abgebrochen, während auf einen Ersatz-Worker gewartet wurde</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>cannot cancel: worker %1 left the cluster</source>
        <translation>Abbruch nicht möglich: Worker %1 hat den Cluster verlassen</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>cancel failed: %1</source>
        <translation>Abbruch fehlgeschlagen: %1</translation>
    </message>
    <message>
        <location line="+52"/>
        <source>worker %1 died (%2) while the job was running</source>
        <translation>Worker %1 ist ausgefallen (%2), während der Job lief</translation>
    </message>
    <message>
        <location filename="../backend/jobs/peercheck.cpp" line="+51"/>
        <source>it left the cluster</source>
        <translation>er hat den Cluster verlassen</translation>
    </message>
    <message>
        <location filename="../backend/jobs/jobreattach.cpp" line="+40"/>
        <source>no job %1 in the history %2: `tessera-ctl jobs` lists them</source>
        <translation>kein Job %1 in der Historie %2: `tessera-ctl jobs` listet sie auf</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>(none open)</source>
        <translation>(keine geöffnet)</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>job %1 is followed already</source>
        <translation>Job %1 wird bereits verfolgt</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>job %1 %2 already%3</source>
        <translation>Job %1 ist bereits %2%3</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>job %1 runs rank 0 on worker %2, which is not among the workers given: pass the job&apos;s workers with --workers, in the order of its run</source>
        <translation>Job %1 führt Rank 0 auf Worker %2 aus, der nicht unter den angegebenen Workern ist: geben Sie die Worker des Jobs mit --workers an, in der Reihenfolge seines Laufs</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>job %1 cannot be followed: %2</source>
        <translation>Job %1 kann nicht verfolgt werden: %2</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>lost while Tessera was closed: %1</source>
        <translation>verloren, während Tessera geschlossen war: %1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>its stored spec cannot be read (%1)</source>
        <translation>seine gespeicherte Spezifikation ist nicht lesbar (%1)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>it had not been launched yet; submit it again</source>
        <translation>er war noch nicht gestartet; reichen Sie ihn erneut ein</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>the stored spec of its attempt %1 cannot be read</source>
        <translation>die gespeicherte Spezifikation seines Versuchs %1 ist nicht lesbar</translation>
    </message>
    <message>
        <location line="+47"/>
        <source>lost while Tessera was closed: its rank-0 worker %1 is not in the cluster any more (its lease ended or was released); if the job still runs there, stop it on that machine</source>
        <translation>verloren, während Tessera geschlossen war: sein Rank-0-Worker %1 ist nicht mehr im Cluster (sein Lease endete oder wurde freigegeben); falls der Job dort noch läuft, stoppen Sie ihn auf dieser Maschine</translation>
    </message>
    <message>
        <location filename="../backend/jobs/jobrecovery.cpp" line="+38"/>
        <source>%1; not relaunched: %2</source>
        <translation>%1; nicht neu gestartet: %2</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>stopping attempt %1 on its workers before relaunching it</source>
        <translation>Versuch %1 wird auf seinen Workern beendet, bevor er neu gestartet wird</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>%1; cannot relaunch: %2</source>
        <translation>%1; Neustart nicht möglich: %2</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>%1; renting one failed: %2</source>
        <translation>%1; Mieten eines Ersatzes fehlgeschlagen: %2</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>attempt %1 ended: %2. Waiting up to %3 s for a worker being rented to replace %4</source>
        <translation>Versuch %1 beendet: %2. Warte bis zu %3 s auf einen gemieteten Worker als Ersatz für %4</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>waiting for a worker to replace %1</source>
        <translation>wartet auf einen Worker als Ersatz für %1</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>worker %1 stopped answering while the job was running: %2</source>
        <translation>Worker %1 antwortet nicht mehr, während der Job lief: %2</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>%1; cannot relaunch: no replacement became Ready within %2 s (%3)</source>
        <translation>%1; Neustart nicht möglich: kein Ersatz wurde innerhalb von %2 s bereit (%3)</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>it was being cancelled</source>
        <translation>er wurde gerade abgebrochen</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Tessera was closing</source>
        <translation>Tessera wurde gerade geschlossen</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>all %1 relaunches of recovery.maxRestarts are used</source>
        <translation>alle %1 Neustarts von recovery.maxRestarts sind verbraucht</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>recovery.onNodeLoss is &quot;fail&quot;</source>
        <translation>recovery.onNodeLoss ist „fail“</translation>
    </message>
    <message numerus="yes">
        <location line="+51"/>
        <source>no idle Ready worker can take the %n rank(s) of worker %1: rent one (Cluster → Rent machines…, or turn on auto-provision) or give the job spare workers</source>
        <translation>
            <numerusform>kein freier bereiter Worker kann den %n Rank von Worker %1 übernehmen: mieten Sie einen (Cluster → Maschinen mieten…, oder automatisch mieten einschalten) oder geben Sie dem Job Reserve-Worker</numerusform>
            <numerusform>kein freier bereiter Worker kann die %n Ranks von Worker %1 übernehmen: mieten Sie einen (Cluster → Maschinen mieten…, oder automatisch mieten einschalten) oder geben Sie dem Job Reserve-Worker</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+42"/>
        <source>cannot shrink either: the surviving workers have %n slot(s), one data-parallel replica needs %1</source>
        <translation>
            <numerusform>auch Verkleinern geht nicht: die verbleibenden Worker haben %n Slot, ein datenparalleles Replikat braucht %1</numerusform>
            <numerusform>auch Verkleinern geht nicht: die verbleibenden Worker haben %n Slots, ein datenparalleles Replikat braucht %1</numerusform>
        </translation>
    </message>
    <message>
        <location line="+73"/>
        <source>from its checkpoint of step %1</source>
        <translation>ab seinem Checkpoint von Schritt %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>with TESSERA_RESUME_FROM=%1</source>
        <translation>mit TESSERA_RESUME_FROM=%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>from step 0 (no checkpoint yet)</source>
        <translation>ab Schritt 0 (noch kein Checkpoint)</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>attempt %1 ended: %2. Relaunching it as attempt %3 of %4 on %5 %6 (%n step(s) computed again)</source>
        <translation>
            <numerusform>Versuch %1 beendet: %2. Neustart als Versuch %3 von %4 auf %5 %6 (%n Schritt wird neu berechnet)</numerusform>
            <numerusform>Versuch %1 beendet: %2. Neustart als Versuch %3 von %4 auf %5 %6 (%n Schritte werden neu berechnet)</numerusform>
        </translation>
    </message>
    <message>
        <location line="+7"/>
        <source>; no idle worker replaces the lost one, so it goes on with data parallel %1 instead of %2 (recovery.onNodeLoss shrink; the global batch stays)</source>
        <translation>; kein freier Worker ersetzt den verlorenen, daher geht es mit Datenparallelität %1 statt %2 weiter (recovery.onNodeLoss shrink; die globale Batch-Größe bleibt)</translation>
    </message>
</context>
<context>
    <name>tessera::JobPanel</name>
    <message>
        <location filename="../app/jobs/jobpanel.cpp" line="+28"/>
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
        <source>Res&amp;ume</source>
        <translation>&amp;Fortsetzen</translation>
    </message>
    <message>
        <location line="+2"/>
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
        <location line="+18"/>
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
        <location line="+16"/>
        <source>Resuming %1 from its checkpoint.</source>
        <translation>Setze %1 vom Checkpoint aus fort.</translation>
    </message>
    <message>
        <location line="+9"/>
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
        <location line="+27"/>
        <location line="+94"/>
        <source>none launched</source>
        <translation>keiner gestartet</translation>
    </message>
    <message>
        <location line="-92"/>
        <source>No example specs found in &apos;%1&apos;. Open a spec file (Ctrl+O) or set TESSERA_EXAMPLES_DIR.</source>
        <translation>Keine Beispiel-Spezifikationen in „%1“ gefunden. Öffnen Sie eine Spezifikationsdatei (Ctrl+O) oder setzen Sie TESSERA_EXAMPLES_DIR.</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Spec file &apos;%1&apos; does not exist; check the path.</source>
        <translation>Die Spezifikationsdatei „%1“ existiert nicht; prüfen Sie den Pfad.</translation>
    </message>
    <message>
        <location line="+43"/>
        <source>No valid spec selected: pick one from the list or open a file.</source>
        <translation>Keine gültige Spezifikation gewählt: wählen Sie eine aus der Liste oder öffnen Sie eine Datei.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>A launch waits for the server&apos;s answer; launch again once it came.</source>
        <translation>Ein Start wartet auf die Antwort des Servers; starten Sie erneut, sobald sie da ist.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>submitting %1…</source>
        <translation>%1 wird übermittelt …</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>waiting for machines (%1)</source>
        <translation>wartet auf Maschinen (%1)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 waits for the machines auto-provision rents for it; see the log.</source>
        <translation>%1 wartet auf die Maschinen, die dafür automatisch gemietet werden; siehe Protokoll.</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Launch failed: %1</source>
        <translation>Start fehlgeschlagen: %1</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Submitted %1 as job %2.</source>
        <translation>%1 als Job %2 übergeben.</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Cancelling job %1…</source>
        <translation>Job %1 wird abgebrochen …</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Cannot cancel %1: %2</source>
        <translation>%1 kann nicht abgebrochen werden: %2</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Open job spec</source>
        <translation>Job-Spezifikation öffnen</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Job specs (*.json)</source>
        <translation>Job-Spezifikationen (*.json)</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Cannot use this spec: %1</source>
        <translation>Diese Spezifikation ist nicht verwendbar: %1</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Job %1 failed: %2</source>
        <translation>Job %1 fehlgeschlagen: %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Job %1 %2.</source>
        <translation>Job %1: %2.</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>step %1</source>
        <translation>Schritt %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source> · epoch %1</source>
        <translation> · Epoche %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source> · loss %1</source>
        <translation> · Loss %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source> · %1 samples/s</source>
        <translation> · %1 Samples/s</translation>
    </message>
    <message>
        <location line="+4"/>
        <source> · %1 tokens/s</source>
        <translation> · %1 Tokens/s</translation>
    </message>
    <message>
        <location line="+9"/>
        <source> · test accuracy %1</source>
        <translation> · Testgenauigkeit %1</translation>
    </message>
</context>
<context>
    <name>tessera::LeaseTableModel</name>
    <message>
        <location filename="../app/rent/leasetablemodel.cpp" line="+77"/>
        <source>$%1</source>
        <translation>$%1</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Lease</source>
        <translation>Miete</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Provider</source>
        <translation>Anbieter</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Nodes</source>
        <translation>Knoten</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Step / reason</source>
        <translation>Schritt / Grund</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Cost so far</source>
        <translation>Kosten bisher</translation>
    </message>
</context>
<context>
    <name>tessera::LinkBanner</name>
    <message>
        <location filename="../app/connection/linkbanner.cpp" line="+42"/>
        <source>Lost the connection to the server (%1): %2. Reconnecting…; the charts keep what they have and go on without a gap.</source>
        <translation>Verbindung zum Server (%1) verloren: %2. Verbinde neu …; die Diagramme behalten, was sie haben, und setzen lückenlos fort.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The server (%1) refused this client: %2. Ask its admin for a certificate (tessera-ctl certify --client NAME), then connect again.</source>
        <translation>Der Server (%1) hat diesen Client abgelehnt: %2. Bitten Sie seinen Admin um ein Zertifikat (tessera-ctl certify --client NAME) und verbinden Sie sich dann erneut.</translation>
    </message>
</context>
<context>
    <name>tessera::LocalLeases</name>
    <message>
        <location filename="../backend/provision/local/localleases.cpp" line="+22"/>
        <source>the worker process ended (%1)</source>
        <translation>der Worker-Prozess ist beendet (%1)</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>every local worker was released</source>
        <translation>alle lokalen Worker wurden freigegeben</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>local worker</source>
        <translation>lokaler Worker</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>this machine</source>
        <translation>dieser Rechner</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>this machine already runs %1 local workers, the most it offers</source>
        <translation>dieser Rechner führt schon %1 lokale Worker aus, das Maximum</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>starting a worker process</source>
        <translation>starte einen Worker-Prozess</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>released while renting</source>
        <translation>während des Mietens freigegeben</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>waiting for %1 to answer</source>
        <translation>warte auf Antwort von %1</translation>
    </message>
    <message>
        <location line="+47"/>
        <source>its worker had already ended</source>
        <translation>sein Worker war bereits beendet</translation>
    </message>
</context>
<context>
    <name>tessera::LocalWorkers</name>
    <message>
        <location filename="../backend/cluster/localworkers.cpp" line="+121"/>
        <source>cannot rent %1 local workers with %2 slots each: ask for at least one worker with one slot</source>
        <translation>%1 lokale Worker mit je %2 Slots lassen sich nicht mieten: mindestens ein Worker mit einem Slot ist nötig</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>%1 is missing: build the tessera-worker target, or set TESSERA_BIN_DIR to the folder holding it</source>
        <translation>%1 fehlt: bauen Sie das Ziel tessera-worker oder setzen Sie TESSERA_BIN_DIR auf den Ordner, der es enthält</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>local workers did not report their address within %1 s; see worker.log in %2</source>
        <translation>lokale Worker haben ihre Adresse nicht innerhalb von %1 s gemeldet; siehe worker.log in %2</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>cannot write the token file %1 (%2): check that the data folder is writable or set TESSERA_DATA_DIR</source>
        <translation>die Token-Datei %1 lässt sich nicht schreiben (%2): prüfen Sie, ob der Datenordner beschreibbar ist, oder setzen Sie TESSERA_DATA_DIR</translation>
    </message>
    <message>
        <location line="+141"/>
        <source>killed by signal %1</source>
        <translation>durch Signal %1 beendet</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>exit code %1</source>
        <translation>Exit-Code %1</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>the local worker process ended (%1); see %2</source>
        <translation>der lokale Worker-Prozess ist beendet (%1); siehe %2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>local worker %1 ended before it served (%2): %3 (log: %4)</source>
        <translation>lokaler Worker %1 wurde beendet, bevor er bereit war (%2): %3 (Protokoll: %4)</translation>
    </message>
</context>
<context>
    <name>tessera::LogPane</name>
    <message>
        <location filename="../app/monitor/logpane.cpp" line="+183"/>
        <source>Job output and cluster events appear here.</source>
        <translation>Job-Ausgaben und Cluster-Ereignisse erscheinen hier.</translation>
    </message>
    <message>
        <location line="+53"/>
        <source>[%1] state → %2</source>
        <translation>[%1] Zustand → %2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>: %1</source>
        <extracomment>between a job&apos;s new state and the reason for it</extracomment>
        <translation>: %1</translation>
    </message>
</context>
<context>
    <name>tessera::LogRankFilter</name>
    <message>
        <location filename="../app/monitor/logrankfilter.cpp" line="+10"/>
        <source>Show the output of one rank only (state changes and app messages stay)</source>
        <translation>Nur die Ausgabe eines Ranks zeigen (Zustandswechsel und Meldungen der App bleiben)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>All ranks</source>
        <translation>Alle Ranks</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>No rank (launcher, Tessera)</source>
        <translation>Kein Rank (Starter, Tessera)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Rank %1</source>
        <translation>Rank %1</translation>
    </message>
</context>
<context>
    <name>tessera::MainWindow</name>
    <message>
        <location filename="../app/mainwindow.cpp" line="+64"/>
        <source>layers %1–%2</source>
        <translation>Schichten %1–%2</translation>
    </message>
    <message>
        <location line="+49"/>
        <source>Tessera</source>
        <translation>Tessera</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>&amp;Training</source>
        <translation>&amp;Training</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Designer</source>
        <translation>&amp;Designer</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>History is off: %1</source>
        <translation>Verlauf ist aus: %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Renting: %1</source>
        <translation>Mieten: %1</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>&amp;Output of:</source>
        <translation>&amp;Ausgabe von:</translation>
    </message>
    <message>
        <location line="+19"/>
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
        <location line="+1"/>
        <source>Runs</source>
        <translation>Läufe</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;New layout</source>
        <translation>&amp;Neues Layout</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Ctrl+N</source>
        <translation>Ctrl+N</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Start the Designer over with the default model and machines</source>
        <translation>Den Designer mit dem Standardmodell und den Standardmaschinen neu beginnen</translation>
    </message>
    <message>
        <location line="+17"/>
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
        <location line="+1"/>
        <source>Rent &amp;machines…</source>
        <translation>&amp;Maschinen mieten…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Ctrl+Shift+M</source>
        <translation>Ctrl+Shift+M</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Offers of every provider (SSH hosts, local workers): rent, watch the leases, release</source>
        <translation>Angebote aller Anbieter (SSH-Hosts, lokale Worker): mieten, Mieten verfolgen, freigeben</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>&amp;Auto-provision…</source>
        <translation>&amp;Automatisch mieten…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Ctrl+Shift+A</source>
        <translation>Ctrl+Shift+A</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Rent what a launched job is missing within a budget, and release idle machines</source>
        <translation>Mieten, was einem gestarteten Job fehlt, im Rahmen eines Budgets, und ruhende Maschinen freigeben</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>&amp;Job</source>
        <translation>&amp;Job</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>De&amp;signer</source>
        <translation>De&amp;signer</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Main</source>
        <translation>Haupt</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>[%1] opened from the history: %2 point(s)</source>
        <translation>[%1] aus dem Verlauf geöffnet: %2 Punkt(e)</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>[%1] cannot load the run: %2</source>
        <translation>[%1] Lauf kann nicht geladen werden: %2</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>[%1] running on the server: following it from its first event</source>
        <translation>[%1] läuft auf dem Server: wird ab seinem ersten Ereignis verfolgt</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>[%1] asking the server to cancel it</source>
        <translation>[%1] der Server wird gebeten, ihn abzubrechen</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>[%1] not cancelled: %2</source>
        <translation>[%1] nicht abgebrochen: %2</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>[%1] alert: %2</source>
        <translation>[%1] Warnung: %2</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>[%1] the server&apos;s stream of this job broke (%2); opening it again</source>
        <translation>[%1] der Datenstrom des Servers zu diesem Job ist abgerissen (%2); er wird neu geöffnet</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>[%1] following again from event %2</source>
        <translation>[%1] wird ab Ereignis %2 wieder verfolgt</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>[%1] no longer followed: %2</source>
        <translation>[%1] wird nicht mehr verfolgt: %2</translation>
    </message>
    <message>
        <location line="-20"/>
        <source>[%1] attempt %2 ended (%3); relaunched as attempt %4 on %5, resuming after step %6</source>
        <translation>[%1] Versuch %2 beendet (%3); als Versuch %4 auf %5 neu gestartet, weiter nach Schritt %6</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>auto-provision: %1</source>
        <translation>automatisch mieten: %1</translation>
    </message>
    <message>
        <location filename="../app/mainwindowguards.cpp" line="+71"/>
        <source>Untitled</source>
        <translation>Unbenannt</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1[*] — Tessera</source>
        <translation>%1[*] — Tessera</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1[*] — Tessera — %2</source>
        <translation>%1[*] — Tessera — %2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1[*] — Tessera — %2@%3</source>
        <translation>%1[*] — Tessera — %2@%3</translation>
    </message>
</context>
<context>
    <name>tessera::MetricsChart</name>
    <message>
        <location filename="../app/monitor/metricschart.cpp" line="+65"/>
        <source>Smoothing</source>
        <translation>Glättung</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Exponential moving average of the train loss, debiased as in TensorBoard: 0 draws the raw values</source>
        <translation>Exponentieller gleitender Mittelwert des Trainings-Loss, entzerrt wie in TensorBoard: 0 zeigt die Rohwerte</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Log scale</source>
        <translation>Log-Skala</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Export</source>
        <translation>Exportieren</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Chart as PNG…</source>
        <translation>Diagramm als PNG…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Data as CSV…</source>
        <translation>Daten als CSV…</translation>
    </message>
    <message>
        <location line="+7"/>
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
        <location line="+23"/>
        <source>test accuracy</source>
        <translation>Testgenauigkeit</translation>
    </message>
    <message>
        <location line="-15"/>
        <source>train loss</source>
        <translation>Trainings-Loss</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>train loss (smoothed)</source>
        <translation>Trainings-Loss (geglättet)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>test loss</source>
        <translation>Test-Loss</translation>
    </message>
    <message>
        <location line="+65"/>
        <source>%1 (accuracy)</source>
        <translation>%1 (Genauigkeit)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 (test accuracy)</source>
        <translation>%1 (Testgenauigkeit)</translation>
    </message>
    <message>
        <location line="+209"/>
        <source>Export chart</source>
        <translation>Diagramm exportieren</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Export chart data</source>
        <translation>Diagrammdaten exportieren</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>PNG images (*.png)</source>
        <translation>PNG-Bilder (*.png)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>CSV files (*.csv)</source>
        <translation>CSV-Dateien (*.csv)</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Export failed</source>
        <translation>Export fehlgeschlagen</translation>
    </message>
</context>
<context>
    <name>tessera::MonitorPanel</name>
    <message>
        <location filename="../app/monitor/monitorpanel.cpp" line="+38"/>
        <source>Dismiss</source>
        <translation>Ausblenden</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>Charts</source>
        <translation>Diagramme</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Pipeline</source>
        <translation>Pipeline</translation>
    </message>
    <message>
        <location line="+97"/>
        <source>⚠ %1: %2</source>
        <translation>⚠ %1: %2</translation>
    </message>
</context>
<context>
    <name>tessera::OfferTableModel</name>
    <message>
        <location filename="../app/rent/offertablemodel.cpp" line="+86"/>
        <source>%1 offer %2</source>
        <translation>%1-Angebot %2</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>This machine&apos;s memory, shared by all its local workers</source>
        <translation>Der Speicher dieses Rechners, den sich alle seine lokalen Worker teilen</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Not known yet: the first rent checks the machine (nvidia-smi) and records its GPUs&apos; memory; a CPU-only host&apos;s memory is not recorded</source>
        <translation>Noch unbekannt: die erste Miete prüft die Maschine (nvidia-smi) und merkt sich den Speicher ihrer GPUs; bei einem Host nur mit CPU wird kein Speicher gemerkt</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The provider does not say how much memory this offer has</source>
        <translation>Der Anbieter gibt nicht an, wie viel Speicher dieses Angebot hat</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>$%1/h</source>
        <translation>$%1/h</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>own</source>
        <translation>eigen</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>yes</source>
        <translation>ja</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>rented</source>
        <translation>vermietet</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Provider</source>
        <translation>Anbieter</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Node</source>
        <translation>Knoten</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Device</source>
        <translation>Gerät</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>Memory</source>
        <translation>Speicher</translation>
    </message>
    <message>
        <location line="-30"/>
        <source>%1 per GPU</source>
        <translation>%1 pro GPU</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 RAM</source>
        <translation>%1 RAM</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>Slots</source>
        <translation>Slots</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Price</source>
        <translation>Preis</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Where</source>
        <translation>Wo</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Available</source>
        <translation>Verfügbar</translation>
    </message>
</context>
<context>
    <name>tessera::PipelinePredictor</name>
    <message>
        <location filename="../app/monitor/pipelinepredictor.cpp" line="+35"/>
        <source>Predicted</source>
        <translation>Vorhergesagt</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No prediction: the job runs a user command, which the planner cannot describe.</source>
        <translation>Keine Vorhersage: der Job führt einen eigenen Befehl aus, den der Planer nicht beschreiben kann.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>No prediction: %1</source>
        <translation>Keine Vorhersage: %1</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>Predicted by the planner: %1, %2 stages, %3 micro-batches (%4)</source>
        <translation>Vom Planer vorhergesagt: %1, %2 Stufen, %3 Micro-Batches (%4)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>calibrated numbers</source>
        <translation>kalibrierte Werte</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>datasheet numbers</source>
        <translation>Datenblattwerte</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Predicted shape in relative units: %1, %2 stages, %3 micro-batches (no estimate: %4)</source>
        <translation>Vorhergesagte Form in relativen Einheiten: %1, %2 Stufen, %3 Micro-Batches (keine Schätzung: %4)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>zero compute time</source>
        <translation>Rechenzeit null</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No prediction: the layout&apos;s schedule is invalid.</source>
        <translation>Keine Vorhersage: der Pipeline-Ablauf des Layouts ist ungültig.</translation>
    </message>
</context>
<context>
    <name>tessera::PipelineView</name>
    <message>
        <location filename="../app/monitor/pipelineview.cpp" line="+34"/>
        <location line="+16"/>
        <source>Predicted</source>
        <translation>Vorhergesagt</translation>
    </message>
    <message>
        <location line="-16"/>
        <location line="+17"/>
        <location line="+44"/>
        <source>No job is followed.</source>
        <translation>Kein Job wird verfolgt.</translation>
    </message>
    <message>
        <location line="-43"/>
        <source>No prediction from the planner for this job.</source>
        <translation>Keine Vorhersage des Planers für diesen Job.</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>Measured</source>
        <translation>Gemessen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Measured at step %1 (%2 of %3 stages reported; 0 = the earliest stage&apos;s step start)</source>
        <translation>Gemessen bei Schritt %1 (%2 von %3 Stufen gemeldet; 0 = Schrittbeginn der frühesten Stufe)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>No measured timeline yet: tessera-train sends one per stage with every perf record (every logEvery steps).</source>
        <translation>Noch kein gemessener Zeitverlauf: tessera-train sendet einen pro Stufe mit jedem Leistungsdatensatz (alle logEvery Schritte).</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Measured timeline: %1</source>
        <translation>Gemessener Zeitverlauf: %1</translation>
    </message>
</context>
<context>
    <name>tessera::Provider</name>
    <message>
        <location filename="../backend/provision/provider.cpp" line="+121"/>
        <source>Tessera stopped while this lease was %1</source>
        <translation>Tessera wurde beendet, während diese Miete „%1“ war</translation>
    </message>
</context>
<context>
    <name>tessera::Question</name>
    <message>
        <location filename="../app/question.cpp" line="+34"/>
        <source>&amp;Stop the job</source>
        <translation>Job &amp;stoppen</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Keep it running</source>
        <translation>&amp;Weiterlaufen lassen</translation>
    </message>
</context>
<context>
    <name>tessera::RecoveryMarkers</name>
    <message>
        <location filename="../app/monitor/recoverymarkers.cpp" line="+36"/>
        <source>↻ attempt %1
%2</source>
        <translation>↻ Versuch %1
%2</translation>
    </message>
</context>
<context>
    <name>tessera::RentDialog</name>
    <message>
        <location filename="../app/rent/rentdialog.cpp" line="+66"/>
        <source>&amp;Rent selected</source>
        <translation>Auswahl &amp;mieten</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Re&amp;lease selected</source>
        <translation>Auswahl &amp;freigeben</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Release &amp;everything…</source>
        <translation>&amp;Alles freigeben…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Add SSH host…</source>
        <translation>SSH-Host &amp;hinzufügen …</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Add SSH &amp;host…</source>
        <translation>SSH-&amp;Host hinzufügen …</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Rent machines</source>
        <translation>Maschinen mieten</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Release every live lease of every provider and terminate the cloud instances Tessera lost track of</source>
        <translation>Jede laufende Miete jedes Anbieters freigeben und die Cloud-Instanzen beenden, die Tessera aus den Augen verloren hat</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Add a Linux machine you can log in to over SSH</source>
        <translation>Eine Linux-Maschine hinzufügen, an der Sie sich per SSH anmelden können</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>&lt;b&gt;No machine of yours is set up yet&lt;/b&gt; — only this machine&apos;s local workers are on offer. Add a Linux machine you can log in to with SSH and it appears above, ready to rent.</source>
        <translation>&lt;b&gt;Noch keine eigene Maschine eingerichtet&lt;/b&gt; — angeboten werden nur die lokalen Worker dieses Rechners. Fügen Sie eine Linux-Maschine hinzu, an der Sie sich per SSH anmelden können, dann erscheint sie oben, bereit zum Mieten.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Or edit %1 (its fields are in the README); Slurm partitions go in slurm-clusters.json beside it.</source>
        <translation>Oder bearbeiten Sie %1 (die Felder stehen in der README); Slurm-Partitionen gehören in slurm-clusters.json daneben.</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>SSH hosts are kept in %1.</source>
        <translation>SSH-Hosts stehen in %1.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>No leases in this session yet: select an offer above and press Rent selected. (Workers started with the Cluster panel&apos;s Rent local workers are not leases: the Cluster panel lists them.)</source>
        <translation>In dieser Sitzung noch keine Mieten: wählen Sie oben ein Angebot und drücken Sie „Auswahl mieten“. (Mit „Lokale Worker anmieten“ im Cluster-Bereich gestartete Worker sind keine Mieten: der Cluster-Bereich listet sie.)</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Offers</source>
        <translation>Angebote</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Leases</source>
        <translation>Mieten</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 is ready: %2 joined the cluster</source>
        <translation>%1 ist bereit: %2 ist dem Cluster beigetreten</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 failed: %2</source>
        <translation>%1 fehlgeschlagen: %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 released</source>
        <translation>%1 freigegeben</translation>
    </message>
    <message>
        <location line="+56"/>
        <source>Added %1 (%2) to %3</source>
        <translation>%1 (%2) zu %3 hinzugefügt</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>Renting %1</source>
        <translation>Miete %1</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Releasing %1…</source>
        <translation>Gebe %1 frei…</translation>
    </message>
    <message>
        <location line="+8"/>
        <location line="+6"/>
        <source>Release everything</source>
        <translation>Alles freigeben</translation>
    </message>
    <message>
        <location line="-5"/>
        <source>Release every live lease and terminate every cloud instance Tessera lost track of? Jobs running on them fail.</source>
        <translation>Jede laufende Miete freigeben und jede Cloud-Instanz beenden, die Tessera aus den Augen verloren hat? Jobs darauf schlagen fehl.</translation>
    </message>
    <message numerus="yes">
        <location line="+21"/>
        <source>Releasing %n lease(s)…</source>
        <translation>
            <numerusform>%n Miete wird freigegeben…</numerusform>
            <numerusform>%n Mieten werden freigegeben…</numerusform>
        </translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Cost so far $%1 · now $%2/h</source>
        <translation>Kosten bisher $%1 · jetzt $%2/h</translation>
    </message>
</context>
<context>
    <name>tessera::ResumeController</name>
    <message>
        <location filename="../app/jobs/resumecontroller.cpp" line="+54"/>
        <source>Res&amp;ume from checkpoint</source>
        <translation>Vom Checkpoint &amp;fortsetzen</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Ctrl+Alt+R</source>
        <translation>Ctrl+Alt+R</translation>
    </message>
    <message>
        <location line="+79"/>
        <source>Nothing to resume: a stopped or failed run that wrote a checkpoint can be resumed (the Job panel&apos;s last job, or one opened from the Runs list).</source>
        <translation>Nichts fortzusetzen: fortsetzen lässt sich ein gestoppter oder fehlgeschlagener Lauf, der einen Checkpoint geschrieben hat (der letzte Job des Job-Bereichs oder einer aus der Liste der Läufe).</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Preparing the resume of %1…</source>
        <translation>Bereite die Fortsetzung von %1 vor …</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 is not in the history: nothing to resume.</source>
        <translation>%1 ist nicht im Verlauf: nichts fortzusetzen.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reading %1 from the history…</source>
        <translation>Lese %1 aus dem Verlauf …</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 succeeded: there is nothing left to resume.</source>
        <translation>%1 war erfolgreich: es gibt nichts fortzusetzen.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 is %2: Resume is for a run that was stopped or failed.</source>
        <translation>%1 ist %2: Fortsetzen ist für gestoppte oder fehlgeschlagene Läufe.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 wrote no checkpoint to resume from (set checkpoint.everySteps in its spec to write some).</source>
        <translation>%1 hat keinen Checkpoint geschrieben, von dem aus es weitergehen könnte (setzen Sie checkpoint.everySteps in seiner Spezifikation).</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Run %1 again from its checkpoint of step %2 (%3)</source>
        <translation>%1 ab dem Checkpoint von Schritt %2 erneut ausführen (%3)</translation>
    </message>
    <message>
        <location line="+24"/>
        <location line="+21"/>
        <source>Cannot resume %1: %2</source>
        <translation>%1 lässt sich nicht fortsetzen: %2</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Cannot write the resumed job&apos;s spec &apos;%1&apos;: %2</source>
        <translation>Die Spezifikation des fortgesetzten Jobs „%1“ lässt sich nicht schreiben: %2</translation>
    </message>
</context>
<context>
    <name>tessera::RunHeading</name>
    <message>
        <location filename="../app/monitor/runheading.cpp" line="+24"/>
        <location line="+6"/>
        <source>Showing %1</source>
        <translation>Zeige %1</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>No run shown: launch a job, or double-click a run in Runs</source>
        <translation>Kein Lauf angezeigt: starten Sie einen Job oder doppelklicken Sie einen Lauf unter „Läufe“</translation>
    </message>
</context>
<context>
    <name>tessera::RunList</name>
    <message>
        <location filename="../app/monitor/runlist.cpp" line="+67"/>
        <source>Filter by name, layout or state</source>
        <translation>Nach Name, Layout oder Zustand filtern</translation>
    </message>
    <message>
        <location line="+49"/>
        <source>Click to sort; right-click to show or hide columns</source>
        <translation>Klicken zum Sortieren; Rechtsklick blendet Spalten ein oder aus</translation>
    </message>
    <message>
        <location line="+82"/>
        <source>&amp;Open in the charts</source>
        <translation>In den Diagrammen ö&amp;ffnen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Overlay on the chart</source>
        <translation>Im Diagramm &amp;überlagern</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Cancel job</source>
        <translation>Job a&amp;bbrechen</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>No history database: runs are not kept.</source>
        <translation>Keine Verlaufsdatenbank: Läufe werden nicht gespeichert.</translation>
    </message>
</context>
<context>
    <name>tessera::RunSummary</name>
    <message>
        <location filename="../app/monitor/runsummary.cpp" line="+102"/>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
</context>
<context>
    <name>tessera::RunTableModel</name>
    <message>
        <location filename="../app/monitor/runtablemodel.cpp" line="+142"/>
        <source>%1 · started %2 · ran %3</source>
        <translation>%1 · gestartet %2 · lief %3</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>final loss %1 · test accuracy %2</source>
        <translation>letzter Loss %1 · Testgenauigkeit %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Double-click to open it in the charts; check it to draw its curves beside the shown run.</source>
        <translation>Doppelklick öffnet ihn in den Diagrammen; ankreuzen zeichnet seine Kurven neben den gezeigten Lauf.</translation>
    </message>
    <message>
        <location line="+81"/>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Layout</source>
        <translation>Layout</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Loss</source>
        <translation>Loss</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Acc.</source>
        <translation>Gen.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Started</source>
        <translation>Gestartet</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Duration</source>
        <translation>Dauer</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The run&apos;s name (its id when it has none); check a run to overlay its curves on the chart</source>
        <translation>Der Name des Laufs (seine ID, wenn er keinen hat); ankreuzen überlagert seine Kurven im Diagramm</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Data-parallel replicas (DP) × pipeline stages (PP) × tensor-parallel width (TP); factors of 1 are left out</source>
        <translation>Datenparallele Replikate (DP) × Pipeline-Stufen (PP) × Tensorparallel-Breite (TP); Faktoren 1 entfallen</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The last train loss the run reported</source>
        <translation>Der letzte Trainings-Loss, den der Lauf gemeldet hat</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The last test accuracy the run reported (0–1)</source>
        <translation>Die letzte Testgenauigkeit, die der Lauf gemeldet hat (0–1)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>When it started running (local time)</source>
        <translation>Wann er zu laufen begann (Ortszeit)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>How long it ran (m:ss or h:mm:ss)</source>
        <translation>Wie lange er lief (m:ss oder h:mm:ss)</translation>
    </message>
</context>
<context>
    <name>tessera::ServerProcess</name>
    <message>
        <location filename="../backend/server/serverprocess.cpp" line="+95"/>
        <source>warning: no history (no audit log either): %1</source>
        <translation>Warnung: kein Verlauf (auch kein Prüfprotokoll): %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>warning: %1</source>
        <translation>Warnung: %1</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>serving %1 on %2 (%3 job(s) to follow; admins: %4)</source>
        <translation>bediene %1 über %2 (%3 Job(s) zu verfolgen; Admins: %4)</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>job %1 %2%3</source>
        <translation>Job %1 %2%3</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>following job %1 again from event %2</source>
        <translation>verfolge Job %1 wieder ab Ereignis %2</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>job %1: %2; relaunching it as attempt %3 on %4 from step %5</source>
        <translation>Job %1: %2; starte ihn neu als Versuch %3 auf %4 ab Schritt %5</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>autoscaler: </source>
        <translation>Automatische Bereitstellung: </translation>
    </message>
</context>
<context>
    <name>tessera::SshHostForm</name>
    <message>
        <location filename="../app/rent/sshhostform.cpp" line="+37"/>
        <source>Address: enter the machine&apos;s host name or IP address, e.g. gpu-box.lan or me@10.0.0.5.</source>
        <translation>Adresse: geben Sie den Host-Namen oder die IP-Adresse der Maschine ein, z. B. gpu-box.lan oder ich@10.0.0.5.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Address: &quot;%1&quot; must be host or user@host.</source>
        <translation>Adresse: „%1“ muss host oder benutzer@host sein.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>SSH user: &quot;%1&quot; differs from the user in Address (&quot;%2&quot;); keep one of them.</source>
        <translation>SSH-Benutzer: „%1“ weicht vom Benutzer in der Adresse ab („%2“); behalten Sie nur einen.</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Address: &quot;%1&quot; is not a host name or IP address (letters, digits, &apos;.&apos;, &apos;-&apos; and &apos;:&apos; only; the port goes in Port).</source>
        <translation>Adresse: „%1“ ist kein Host-Name und keine IP-Adresse (nur Buchstaben, Ziffern, „.“, „-“ und „:“; der Port gehört in „Port“).</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>SSH user: &quot;%1&quot; is not a login name (letters, digits, &apos;.&apos;, &apos;_&apos; and &apos;-&apos;, not starting with &apos;-&apos;).</source>
        <translation>SSH-Benutzer: „%1“ ist kein Anmeldename (Buchstaben, Ziffern, „.“, „_“ und „-“, nicht mit „-“ am Anfang).</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Name: &quot;%1&quot; cannot name a node: use up to 63 letters, digits, &apos;.&apos;, &apos;_&apos; and &apos;-&apos;, e.g. lab-a.</source>
        <translation>Name: „%1“ taugt nicht als Knotenname: bis zu 63 Buchstaben, Ziffern, „.“, „_“ und „-“, z. B. lab-a.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Port: %1 is not a TCP port (1-65535).</source>
        <translation>Port: %1 ist kein TCP-Port (1-65535).</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Identity file: %1 does not exist; choose the private key ssh logs in with, or leave it empty for ssh-agent.</source>
        <translation>Schlüsseldatei: %1 existiert nicht; wählen Sie den privaten Schlüssel, mit dem sich ssh anmeldet, oder lassen Sie das Feld für ssh-agent leer.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Identity file: %1 is not a readable file.</source>
        <translation>Schlüsseldatei: %1 ist keine lesbare Datei.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Identity file: %1 is the public key; choose the private key (the same name without .pub).</source>
        <translation>Schlüsseldatei: %1 ist der öffentliche Schlüssel; wählen Sie den privaten (derselbe Name ohne .pub).</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Known hosts file: %1 is a folder; name a file in it, e.g. %1/known_hosts.</source>
        <translation>Datei bekannter Hosts: %1 ist ein Ordner; nennen Sie eine Datei darin, z. B. %1/known_hosts.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>GPUs: the numbers of GPUs, their memory and the cores cannot be negative.</source>
        <translation>GPUs: Anzahl der GPUs, ihr Speicher und die Kerne können nicht negativ sein.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>GPUs: 0 (CPU only), but a GPU model or memory is set: enter the number of GPUs, or clear the model and memory.</source>
        <translation>GPUs: 0 (nur CPU), aber ein GPU-Modell oder Speicher ist gesetzt: geben Sie die Anzahl der GPUs ein oder leeren Sie Modell und Speicher.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Price per hour: cannot be negative (0 for your own machine).</source>
        <translation>Preis pro Stunde: kann nicht negativ sein (0 für die eigene Maschine).</translation>
    </message>
</context>
<context>
    <name>tessera::SshHostProbe</name>
    <message>
        <location filename="../app/rent/sshhostprobe.cpp" line="+61"/>
        <source>Fetching the host key of %1…</source>
        <translation>Hole den Host-Schlüssel von %1 …</translation>
    </message>
    <message>
        <location line="+6"/>
        <location line="+121"/>
        <source>Cannot run %1 (%2): install the Debian package openssh-client.</source>
        <translation>%1 lässt sich nicht ausführen (%2): installieren Sie das Debian-Paket openssh-client.</translation>
    </message>
    <message>
        <location line="-111"/>
        <source>%1 sent no host key%2: check the address and the port, and that sshd runs there.</source>
        <translation>%1 hat keinen Host-Schlüssel gesendet%2: prüfen Sie Adresse und Port und ob dort sshd läuft.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source> in time</source>
        <translation> rechtzeitig</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Cannot compute the fingerprints of %1&apos;s host keys with %2 (%3): install the Debian package openssh-client.</source>
        <translation>Die Fingerabdrücke der Host-Schlüssel von %1 lassen sich mit %2 nicht berechnen (%3): installieren Sie das Debian-Paket openssh-client.</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>Cannot read the known hosts file %1 (%2): check that it is a readable file.</source>
        <translation>Die Datei bekannter Hosts %1 lässt sich nicht lesen (%2): prüfen Sie, ob sie eine lesbare Datei ist.</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Compare the fingerprint with the machine&apos;s own, then accept or reject it.</source>
        <translation>Vergleichen Sie den Fingerabdruck mit dem der Maschine selbst und nehmen Sie ihn dann an oder lehnen Sie ihn ab.</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>%1 now shows a host key that %2 does not hold for it%3: someone may be intercepting the connection, or the machine was reinstalled. Ask its owner; only if the new fingerprint is right, remove the old key with ssh-keygen -R &apos;%4&apos; -f %2 and test again.</source>
        <translation>%1 zeigt jetzt einen Host-Schlüssel, den %2 für ihn nicht enthält%3: jemand könnte die Verbindung abfangen, oder die Maschine wurde neu installiert. Fragen Sie ihren Besitzer; nur wenn der neue Fingerabdruck stimmt, entfernen Sie den alten Schlüssel mit ssh-keygen -R &apos;%4&apos; -f %2 und testen Sie erneut.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source> (the key is marked revoked)</source>
        <translation> (der Schlüssel ist als widerrufen markiert)</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>The host key of %1 was rejected: nothing was written.</source>
        <translation>Der Host-Schlüssel von %1 wurde abgelehnt: nichts wurde geschrieben.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Logging in to %1…</source>
        <translation>Melde mich an %1 an …</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>testing the connection</source>
        <translation>teste die Verbindung</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>unknown system</source>
        <translation>unbekanntes System</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>1 core</source>
        <translation>1 Kern</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>%1 cores</source>
        <translation>%1 Kerne</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 RAM</source>
        <translation>%1 RAM</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>no Open MPI</source>
        <translation>kein Open MPI</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 × %2 (%3)</source>
        <translation>%1 × %2 (%3)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no GPU</source>
        <translation>keine GPU</translation>
    </message>
</context>
<context>
    <name>tessera::SshHostsFile</name>
    <message>
        <location filename="../backend/provision/ssh/sshhostsfile.cpp" line="+26"/>
        <source>The SSH hosts file %1 %2; fix it or move it away (nothing was written).</source>
        <translation>Die SSH-Hosts-Datei %1 %2; korrigieren oder verschieben Sie sie (nichts wurde geschrieben).</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>line %1, column %2</source>
        <translation>Zeile %1, Spalte %2</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Name: the hosts file already has a host called %1 (entry %2); pick another name.</source>
        <translation>Name: die Hosts-Datei hat schon einen Host namens %1 (Eintrag %2); wählen Sie einen anderen Namen.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Address: %1 is already in the hosts file as %2 (entry %3).</source>
        <translation>Adresse: %1 steht schon als %2 in der Hosts-Datei (Eintrag %3).</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Cannot read the SSH hosts file %1: %2.</source>
        <translation>Die SSH-Hosts-Datei %1 lässt sich nicht lesen: %2.</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>is not valid JSON at %1 (%2)</source>
        <translation>ist an %1 kein gültiges JSON (%2)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>is not a JSON object ({&quot;hosts&quot;: [...]})</source>
        <translation>ist kein JSON-Objekt ({&quot;hosts&quot;: [...]})</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>has a &quot;hosts&quot; that is not a list</source>
        <translation>hat ein &quot;hosts&quot;, das keine Liste ist</translation>
    </message>
    <message>
        <location line="+6"/>
        <source> (nothing was written)</source>
        <translation> (nichts wurde geschrieben)</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Cannot create the folder %1 for the SSH hosts file: check its parent&apos;s permissions.</source>
        <translation>Der Ordner %1 für die SSH-Hosts-Datei lässt sich nicht anlegen: prüfen Sie die Rechte des übergeordneten Ordners.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Cannot write the SSH hosts file %1: %2.</source>
        <translation>Die SSH-Hosts-Datei %1 lässt sich nicht schreiben: %2.</translation>
    </message>
</context>
<context>
    <name>tessera::StateText</name>
    <message>
        <location filename="../backend/core/jobtypes.cpp" line="+18"/>
        <source>queued</source>
        <comment>job state</comment>
        <translation>in Warteschlange</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>starting</source>
        <comment>job state</comment>
        <translation>startet</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>running</source>
        <comment>job state</comment>
        <translation>läuft</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>succeeded</source>
        <comment>job state</comment>
        <translation>erfolgreich</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>failed</source>
        <comment>job state</comment>
        <translation>fehlgeschlagen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>cancelled</source>
        <comment>job state</comment>
        <translation>abgebrochen</translation>
    </message>
    <message>
        <location filename="../backend/core/workernode.cpp" line="+16"/>
        <source>connecting</source>
        <comment>worker state</comment>
        <translation>verbindet</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>ready</source>
        <comment>worker state</comment>
        <translation>bereit</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>unreachable</source>
        <comment>worker state</comment>
        <translation>nicht erreichbar</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>stopped</source>
        <comment>worker state</comment>
        <translation>gestoppt</translation>
    </message>
    <message>
        <location filename="../backend/provision/lease.cpp" line="+16"/>
        <source>requested</source>
        <comment>lease state</comment>
        <translation>angefordert</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>booting</source>
        <comment>lease state</comment>
        <translation>bootet</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>installing</source>
        <comment>lease state</comment>
        <translation>installiert</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>registering</source>
        <comment>lease state</comment>
        <translation>registriert sich</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>ready</source>
        <comment>lease state</comment>
        <translation>bereit</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>failed</source>
        <comment>lease state</comment>
        <translation>fehlgeschlagen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>released</source>
        <comment>lease state</comment>
        <translation>freigegeben</translation>
    </message>
</context>
<context>
    <name>tessera::StatusHint</name>
    <message>
        <location filename="../app/statushint.cpp" line="+60"/>
        <source>Designer: drag layers onto a device to make them its pipeline stage; Ctrl+Z undoes, the Designer menu saves and launches the layout.</source>
        <translation>Designer: ziehen Sie Schichten auf ein Gerät, um sie zu dessen Pipeline-Stufe zu machen; Ctrl+Z macht rückgängig, das Designer-Menü speichert und startet das Layout.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Job %1 is %2: loss and accuracy arrive in the charts, its output in the Log; Cancel (%3) stops it.</source>
        <translation>Job %1 %2: Loss und Genauigkeit erscheinen in den Diagrammen, seine Ausgabe im Protokoll; Abbrechen (%3) stoppt ihn.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Rent local workers (%1) or machines (%2), pick a spec, then Launch (%3).</source>
        <translation>Lokale Worker (%1) oder Maschinen (%2) mieten, eine Spezifikation wählen, dann starten (%3).</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Job %1 %2. Launch again (%3), or double-click a run in Runs to look at it.</source>
        <translation>Job %1 %2. Erneut starten (%3) oder einen Lauf unter „Läufe“ doppelklicken, um ihn anzusehen.</translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>%n worker(s) ready: pick a spec, then Launch (%1).</source>
        <translation>
            <numerusform>%n Worker bereit: eine Spezifikation wählen, dann starten (%1).</numerusform>
            <numerusform>%n Worker bereit: eine Spezifikation wählen, dann starten (%1).</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>tessera::StepTimeChart</name>
    <message>
        <location filename="../app/monitor/steptimechart.cpp" line="+47"/>
        <source>compute</source>
        <translation>Rechnen</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>compute: forward and backward passes</source>
        <translation>Rechnen: Vorwärts- und Rückwärtsdurchläufe</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>exposed comm.</source>
        <translation>sichtbare Komm.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>exposed communication: the part not hidden behind compute</source>
        <translation>sichtbare Kommunikation: der Teil, der nicht hinter dem Rechnen verborgen ist</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>bubble</source>
        <translation>Blase</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>pipeline bubble: idle while other stages work</source>
        <translation>Pipeline-Blase: Leerlauf, während andere Stufen arbeiten</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>rank</source>
        <translation>Rank</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>ms per step</source>
        <translation>ms pro Schritt</translation>
    </message>
    <message>
        <location line="+44"/>
        <source>S%1</source>
        <translation>S%1</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>%1
S%2</source>
        <translation>%1
S%2</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>rank %1: stage %2, data-parallel rank %3, tensor-parallel rank %4</source>
        <translation>Rank %1: Stufe %2, datenparalleler Rank %3, tensorparalleler Rank %4</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>step %1 ms = compute %2 + exposed communication %3 + bubble %4 (at step %5)</source>
        <translation>Schritt %1 ms = Rechnen %2 + sichtbare Kommunikation %3 + Blase %4 (bei Schritt %5)</translation>
    </message>
</context>
<context>
    <name>tessera::StreamFollower</name>
    <message>
        <location filename="../backend/cluster/streamfollower.cpp" line="+108"/>
        <source>%1 — gave up following %2 after %3 s</source>
        <translation>%1 — Verfolgung von %2 nach %3 s aufgegeben</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>stream ended before its final message</source>
        <translation>Stream endete vor seiner letzten Nachricht</translation>
    </message>
</context>
<context>
    <name>tessera::ThroughputChart</name>
    <message>
        <location filename="../app/monitor/throughputchart.cpp" line="+24"/>
        <source>step</source>
        <translation>Schritt</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>samples/s (left)</source>
        <translation>Beispiele/s (links)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>learning rate (right)</source>
        <translation>Lernrate (rechts)</translation>
    </message>
</context>
<context>
    <name>tessera::UtilizationChart</name>
    <message>
        <location filename="../app/monitor/utilizationchart.cpp" line="+84"/>
        <source>utilization %</source>
        <translation>Auslastung %</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>memory GiB</source>
        <translation>Speicher GiB</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>time since start</source>
        <translation>Zeit seit Start</translation>
    </message>
    <message>
        <location line="+148"/>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 · %2 (%3)</source>
        <translation>%1 · %2 (%3)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>utilization %1 · memory %2 / %3 GiB</source>
        <translation>Auslastung %1 · Speicher %2 / %3 GiB</translation>
    </message>
    <message>
        <location line="+4"/>
        <source> · %1 W</source>
        <translation> · %1 W</translation>
    </message>
    <message>
        <location line="+3"/>
        <source> · %1 °C</source>
        <translation> · %1 °C</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>holds no rank of this job</source>
        <translation>hält keinen Rank dieses Jobs</translation>
    </message>
</context>
<context>
    <name>tessera::WindowGuard</name>
    <message numerus="yes">
        <location filename="../app/windowguard.cpp" line="+31"/>
        <source>%n job(s) did not stop within %1 s: going on without them (%2).</source>
        <translation>
            <numerusform>%n Job hat nicht innerhalb von %1 s angehalten: es geht ohne ihn weiter (%2).</numerusform>
            <numerusform>%n Jobs haben nicht innerhalb von %1 s angehalten: es geht ohne sie weiter (%2).</numerusform>
        </translation>
    </message>
    <message>
        <location line="+53"/>
        <source>Unsaved layout</source>
        <translation>Nicht gespeichertes Layout</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The new layout has changes that are not saved.</source>
        <translation>Das neue Layout hat nicht gespeicherte Änderungen.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The layout %1 has changes that are not saved.</source>
        <translation>Das Layout %1 hat nicht gespeicherte Änderungen.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Save them before you %1? Discard drops them; Cancel keeps working on the layout.</source>
        <translation>Speichern, bevor Sie %1? „Verwerfen“ lässt sie fallen; „Abbrechen“ arbeitet am Layout weiter.</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>quit</source>
        <translation>beenden</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Quit Tessera</source>
        <translation>Tessera beenden</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n job(s) still running: %1.</source>
        <translation>
            <numerusform>%n Job läuft noch: %1.</numerusform>
            <numerusform>%n Jobs laufen noch: %1.</numerusform>
        </translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Quitting stops them: local workers end with Tessera, and their jobs with them. Stop the jobs and quit, or cancel to keep them running.</source>
        <translation>Beenden stoppt sie: lokale Worker enden mit Tessera und ihre Jobs mit ihnen. Stoppen Sie die Jobs und beenden Sie, oder brechen Sie ab, damit sie weiterlaufen.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Their workers are on other machines: the jobs can go on after Tessera quits, and it follows them again at its next start (the charts fill in what they printed meanwhile), or be stopped first.</source>
        <translation>Ihre Worker sind auf anderen Maschinen: die Jobs können nach dem Beenden von Tessera weiterlaufen, und Tessera verfolgt sie beim nächsten Start wieder (die Diagramme ergänzen, was sie inzwischen ausgegeben haben), oder zuerst gestoppt werden.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Meanwhile tessera-ctl serve (pid %1) follows them: it relaunches a job that loses a node and releases rented machines left idle.</source>
        <translation>Währenddessen verfolgt tessera-ctl serve (PID %1) sie: es startet einen Job neu, der einen Knoten verliert, und gibt untätige gemietete Maschinen frei.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Meanwhile nobody follows them: no relaunch after a node loss, no release of idle rented machines. `tessera-ctl serve` does that (systemctl --user enable --now tessera-backend).</source>
        <translation>Währenddessen verfolgt sie niemand: kein Neustart nach einem Knotenverlust, keine Freigabe untätiger gemieteter Maschinen. Das übernimmt `tessera-ctl serve` (systemctl --user enable --now tessera-backend).</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;Stop and quit</source>
        <translation>&amp;Stoppen und beenden</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Quit, keep running</source>
        <translation>&amp;Beenden, weiterlaufen lassen</translation>
    </message>
    <message numerus="yes">
        <location line="+5"/>
        <source>Stopping %n job(s) before quitting…</source>
        <translation>
            <numerusform>Stoppe %n Job vor dem Beenden …</numerusform>
            <numerusform>Stoppe %n Jobs vor dem Beenden …</numerusform>
        </translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Release workers</source>
        <translation>Worker freigeben</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n job(s) run on the local workers: %1.</source>
        <translation>
            <numerusform>%n Job läuft auf den lokalen Workern: %1.</numerusform>
            <numerusform>%n Jobs laufen auf den lokalen Workern: %1.</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Releasing the workers stops these jobs. Stop them and release the workers, or cancel to keep them running.</source>
        <translation>Die Freigabe der Worker stoppt diese Jobs. Stoppen Sie sie und geben Sie die Worker frei, oder brechen Sie ab, damit sie weiterlaufen.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Stop and release</source>
        <translation>&amp;Stoppen und freigeben</translation>
    </message>
    <message numerus="yes">
        <location line="+5"/>
        <source>Stopping %n job(s) before releasing the workers…</source>
        <translation>
            <numerusform>Stoppe %n Job vor der Freigabe der Worker …</numerusform>
            <numerusform>Stoppe %n Jobs vor der Freigabe der Worker …</numerusform>
        </translation>
    </message>
    <message>
        <location line="+5"/>
        <source>its workers were released</source>
        <translation>seine Worker wurden freigegeben</translation>
    </message>
</context>
<context>
    <name>tessera::WorkdirShipper</name>
    <message>
        <location filename="../backend/jobs/workdirshipper.cpp" line="+60"/>
        <source>code %1 (%2 files, bundle %3)</source>
        <translation>Code %1 (%2 Dateien, Bündel %3)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source> shipped to %1</source>
        <translation> verteilt an %1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 already had it</source>
        <translation>%1 hatte ihn schon</translation>
    </message>
</context>
<context>
    <name>tessera::WorkerClient</name>
    <message>
        <location filename="../backend/cluster/workerclient.cpp" line="+70"/>
        <source>worker %1 closed the connection (%2): if it was started with --tls-cert, connect with the cluster&apos;s certificates (tessera-ctl --tls, or --tls-ca/--tls-cert/--tls-key)</source>
        <translation>Worker %1 hat die Verbindung geschlossen (%2): Wurde er mit --tls-cert gestartet, verbinden Sie sich mit den Zertifikaten des Clusters (tessera-ctl --tls oder --tls-ca/--tls-cert/--tls-key)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>worker %1: its certificate was refused (%2): it was not issued by this cluster&apos;s CA, has expired, or does not name this address; re-rent the node (Tessera issues a new certificate) or give it one from `tessera-ctl certify`</source>
        <translation>Worker %1: sein Zertifikat wurde abgelehnt (%2): Es wurde nicht von der CA dieses Clusters ausgestellt, ist abgelaufen oder nennt diese Adresse nicht; mieten Sie den Knoten neu (Tessera stellt ein neues Zertifikat aus) oder geben Sie ihm eines von `tessera-ctl certify`</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>worker %1: refused this side&apos;s certificate: %2</source>
        <translation>Worker %1 hat das Zertifikat dieser Seite abgelehnt: %2</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>worker %1 ended the TLS handshake (%2): it trusts another CA than this cluster&apos;s, or it serves plaintext (started with --insecure, or on loopback); give it a certificate from `tessera-ctl certify`, or connect without TLS if it is meant to be plaintext</source>
        <translation>Worker %1 hat den TLS-Handshake beendet (%2): Er vertraut einer anderen CA als der dieses Clusters oder spricht Klartext (mit --insecure oder auf Loopback gestartet); geben Sie ihm ein Zertifikat von `tessera-ctl certify` oder verbinden Sie sich ohne TLS, wenn er Klartext sprechen soll</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>worker %1 (%2): does not answer (%3); check that tessera-worker runs there and the address and port are right</source>
        <translation>Worker %1 (%2): antwortet nicht (%3); prüfen Sie, ob dort tessera-worker läuft und Adresse und Port stimmen</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>worker %1 (%2): refused the token (%3); use the token file the worker was started with</source>
        <translation>Worker %1 (%2): hat das Token abgelehnt (%3); verwenden Sie die Token-Datei, mit der der Worker gestartet wurde</translation>
    </message>
    <message>
        <location line="+8"/>
        <location line="+3"/>
        <source>worker %1 (%2): %3</source>
        <translation>Worker %1 (%2): %3</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>worker %1 (%2): failed with gRPC status %3: %4</source>
        <translation>Worker %1 (%2): fehlgeschlagen mit gRPC-Status %3: %4</translation>
    </message>
</context>
<context>
    <name>tessera::client::LocalServer</name>
    <message>
        <location filename="../backend/client/localserver.cpp" line="+59"/>
        <source>the data folder %1 is in use by %2: stop it first (a `tessera-ctl serve` with Ctrl-C or TERM), or use another data folder (--data-dir)</source>
        <translation>der Datenordner %1 wird von %2 benutzt: beenden Sie es zuerst (ein `tessera-ctl serve` mit Strg-C oder TERM) oder nutzen Sie einen anderen Datenordner (--data-dir)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>the tessera-server for %1 did not answer within %2 s; its log (%3) ends:
%4</source>
        <translation>der tessera-server für %1 hat nicht binnen %2 s geantwortet; sein Protokoll (%3) endet mit:
%4</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>the tessera-server for %1 stopped at start; its log (%2) ends:
%3</source>
        <translation>der tessera-server für %1 hat sich beim Start beendet; sein Protokoll (%2) endet mit:
%3</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 is missing: build the tessera-server target, or set TESSERA_BIN_DIR to the folder that holds it</source>
        <translation>%1 fehlt: bauen Sie das Ziel tessera-server oder setzen Sie TESSERA_BIN_DIR auf den Ordner, der es enthält</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>cannot start %1: %2</source>
        <translation>kann %1 nicht starten: %2</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>cannot start %1: fork failed</source>
        <translation>kann %1 nicht starten: fork fehlgeschlagen</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>  (no log)</source>
        <translation>  (kein Protokoll)</translation>
    </message>
</context>
<context>
    <name>tessera::designer::AutoPlanDialog</name>
    <message>
        <location filename="../app/designer/autoplandialog.cpp" line="+29"/>
        <source>DP %1 × TP %2 × PP %3</source>
        <translation>DP %1 × TP %2 × PP %3</translation>
    </message>
    <message>
        <location line="+5"/>
        <source> × CP %1</source>
        <translation> × CP %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>, EP %1</source>
        <translation>, EP %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source> (layers %1)</source>
        <translation> (Schichten %1)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>, %1 micro-batches, %2</source>
        <translation>, %1 Micro-Batches, %2</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>&amp;Search</source>
        <translation>&amp;Suchen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Apply</source>
        <translation>&amp;Übernehmen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Auto-plan</source>
        <translation>Auto-Planung</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Fastest layout that fits</source>
        <translation>Schnellstes Layout, das passt</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cheapest within the deadline</source>
        <translation>Günstigstes innerhalb der Frist</translation>
    </message>
    <message>
        <location line="+6"/>
        <source> h</source>
        <translation> h</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&amp;Goal:</source>
        <translation>&amp;Ziel:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>S&amp;teps of the run:</source>
        <translation>S&amp;chritte des Laufs:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Deadline:</source>
        <translation>&amp;Frist:</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>Searching…</source>
        <translation>Suche läuft…</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>%1/step — %2</source>
        <translation>%1/Schritt — %2</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Auto-plan cannot estimate this cluster: %1</source>
        <translation>Die Auto-Planung kann diesen Cluster nicht schätzen: %1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>No layout fits these machines: add devices, use ZeRO or recompute, or pick a smaller model.</source>
        <translation>Kein Layout passt auf diese Maschinen: Geräte hinzufügen, ZeRO oder Neuberechnung nutzen oder ein kleineres Modell wählen.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Pick a layout and Apply it; you can keep editing it after.</source>
        <translation>Ein Layout wählen und übernehmen; danach lässt es sich weiter bearbeiten.</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Apply auto-plan: %1</source>
        <translation>Auto-Planung übernehmen: %1</translation>
    </message>
</context>
<context>
    <name>tessera::designer::ClusterScene</name>
    <message>
        <location filename="../app/designer/clusterscene.cpp" line="+173"/>
        <source>Context-parallel group of stage %1, DP replica %2: ranks %3–%4 split each sequence %5 ways and pass keys and values around a ring</source>
        <translation>Kontextparallele Gruppe von Stufe %1, DP-Replikat %2: Ränge %3–%4 teilen jede Sequenz %5-fach und reichen Schlüssel und Werte im Ring weiter</translation>
    </message>
    <message>
        <location line="-136"/>
        <source>%1 · %2 × %3</source>
        <translation>%1 · %2 × %3</translation>
    </message>
    <message>
        <location line="+6"/>
        <source> · $%1/h</source>
        <translation> · $%1/h</translation>
    </message>
    <message>
        <location line="+120"/>
        <source>Tensor-parallel group of stage %1, DP replica %2: ranks %3–%4</source>
        <translation>Tensorparallel-Gruppe von Stufe %1, DP-Replikat %2: Ranks %3–%4</translation>
    </message>
    <message>
        <location line="+61"/>
        <source>no ranks</source>
        <translation>keine Ranks</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>ranks %1–%2 · stages %3</source>
        <translation>Ranks %1–%2 · Stufen %3</translation>
    </message>
    <message>
        <location line="+5"/>
        <source> · %1 idle</source>
        <translation> · %1 frei</translation>
    </message>
</context>
<context>
    <name>tessera::designer::DesignerPanel</name>
    <message>
        <location filename="../app/designer/designeractions.cpp" line="+89"/>
        <source>TP communication overlap</source>
        <translation>TP-Kommunikation überlappen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ctrl+Alt+T</source>
        <translation>Ctrl+Alt+T</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Overlap the tensor-parallel all-gathers and reduce-scatters with the GEMMs around them (Megatron-LM&apos;s --tp-comm-overlap; needs sequence parallelism): only what those GEMMs cannot hide is exposed</source>
        <translation>Die All-Gathers und Reduce-Scatters der Tensor-Parallelität mit den umgebenden GEMMs überlappen (--tp-comm-overlap von Megatron-LM; braucht Sequenzparallelität): nur was diese GEMMs nicht verdecken, bleibt sichtbar</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Turn TP overlap on</source>
        <translation>TP-Überlappung einschalten</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Turn TP overlap off</source>
        <translation>TP-Überlappung ausschalten</translation>
    </message>
    <message>
        <location line="-56"/>
        <source>&amp;Undo</source>
        <translation>&amp;Rückgängig</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Ctrl+Z</source>
        <translation>Ctrl+Z</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Undo the last edit of the layout</source>
        <translation>Letzte Änderung am Layout rückgängig machen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Redo</source>
        <translation>&amp;Wiederholen</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Ctrl+Shift+Z</source>
        <translation>Ctrl+Shift+Z</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Redo the edit undone last</source>
        <translation>Zuletzt rückgängig gemachte Änderung wiederholen</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Undo: %1 (%2)</source>
        <translation>Rückgängig: %1 (%2)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Redo: %1 (%2)</source>
        <translation>Wiederholen: %1 (%2)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Open layout…</source>
        <translation>Layout öffnen…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ctrl+Shift+O</source>
        <translation>Ctrl+Shift+O</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Open a *.tessera-plan.json layout file</source>
        <translation>Eine Layout-Datei *.tessera-plan.json öffnen</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+309"/>
        <source>Save layout</source>
        <translation>Layout speichern</translation>
    </message>
    <message>
        <location line="-309"/>
        <source>Ctrl+S</source>
        <translation>Ctrl+S</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Save the layout file</source>
        <translation>Die Layout-Datei speichern</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Save layout as…</source>
        <translation>Layout speichern unter…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ctrl+Shift+S</source>
        <translation>Ctrl+Shift+S</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Save the layout under a new name</source>
        <translation>Das Layout unter neuem Namen speichern</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Import config.json…</source>
        <translation>config.json importieren…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ctrl+I</source>
        <translation>Ctrl+I</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Plan a Hugging Face model (GPT-2, LLaMA, Mistral) from its config.json</source>
        <translation>Ein Hugging-Face-Modell (GPT-2, LLaMA, Mistral) aus seiner config.json planen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Use live cluster</source>
        <translation>Laufenden Cluster nutzen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ctrl+Shift+U</source>
        <translation>Ctrl+Shift+U</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Plan on the Ready workers of the Cluster panel</source>
        <translation>Auf den bereiten Workern des Cluster-Bereichs planen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Auto-plan…</source>
        <translation>Auto-Planung…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ctrl+Shift+P</source>
        <translation>Ctrl+Shift+P</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Search the fastest (or cheapest) layouts that fit</source>
        <translation>Die schnellsten (oder günstigsten) passenden Layouts suchen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Export layout…</source>
        <translation>Layout exportieren …</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Ctrl+Shift+E</source>
        <translation>Ctrl+Shift+E</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show the layout as Megatron-LM arguments, a DeepSpeed config and torchtitan TOML</source>
        <translation>Das Layout als Megatron-LM-Argumente, DeepSpeed-Konfiguration und torchtitan-TOML zeigen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Launch layout</source>
        <translation>Layout starten</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ctrl+Shift+L</source>
        <translation>Ctrl+Shift+L</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Run the drawn layout as a job</source>
        <translation>Das gezeichnete Layout als Job ausführen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Launch with program…</source>
        <translation>Mit Programm starten …</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ctrl+Alt+L</source>
        <translation>Ctrl+Alt+L</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Run your own program (PyTorch, …) over the drawn layout</source>
        <translation>Ihr eigenes Programm (PyTorch, …) auf dem gezeichneten Layout ausführen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Assign to device</source>
        <translation>Gerät zuweisen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ctrl+Return</source>
        <translation>Ctrl+Return</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Assign the selected layers to the device chosen in the Device list</source>
        <translation>Die gewählten Schichten dem in der Geräteliste gewählten Gerät zuweisen</translation>
    </message>
    <message>
        <location line="+74"/>
        <source>switch the model to %1</source>
        <translation>das Modell auf %1 umstellen</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Set model to %1</source>
        <translation>Modell auf %1 setzen</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>%1 (from the layout file)</source>
        <translation>%1 (aus der Layout-Datei)</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Machines: &apos;%1&apos; is not a price; write it as &apos;@ 23.92/h&apos; (USD per node-hour).</source>
        <translation>Maschinen: &apos;%1&apos; ist kein Preis; als &apos;@ 23.92/h&apos; schreiben (USD pro Knotenstunde).</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Machines: %1</source>
        <translation>Maschinen: %1</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Plan on %1</source>
        <translation>Auf %1 planen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Planning on %1.</source>
        <translation>Planung auf %1.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>No Ready workers: rent local workers in the Cluster panel (Ctrl+R) first.</source>
        <translation>Keine bereiten Worker: zuerst im Cluster-Bereich lokale Worker anmieten (Ctrl+R).</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Plan on the live cluster</source>
        <translation>Auf dem laufenden Cluster planen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Planning on the live cluster: %1 workers.</source>
        <translation>Planung auf dem laufenden Cluster: %1 Worker.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Save failed: %1</source>
        <translation>Speichern fehlgeschlagen: %1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Saved the layout to %1.</source>
        <translation>Layout in %1 gespeichert.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Open failed: %1</source>
        <translation>Öffnen fehlgeschlagen: %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>open %1</source>
        <translation>%1 öffnen</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Opened %1.</source>
        <translation>%1 geöffnet.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Run the drawn layout as a job on the live cluster (%1)</source>
        <translation>Das gezeichnete Layout als Job auf dem laufenden Cluster ausführen (%1)</translation>
    </message>
    <message>
        <location line="+8"/>
        <location line="+10"/>
        <source>Cannot launch: %1</source>
        <translation>Start nicht möglich: %1</translation>
    </message>
    <message>
        <location line="-6"/>
        <source>the drawn layout</source>
        <translation>das gezeichnete Layout</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>%1 over the drawn layout</source>
        <translation>%1 auf dem gezeichneten Layout</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Cannot write the job spec &apos;%1&apos;: %2</source>
        <translation>Die Job-Spezifikation &apos;%1&apos; lässt sich nicht schreiben: %2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Launching %1 (spec %2).</source>
        <translation>%1 wird gestartet (Spezifikation %2).</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Open layout</source>
        <translation>Layout öffnen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Layout files (*%1);;JSON (*.json)</source>
        <translation>Layout-Dateien (*%1);;JSON (*.json)</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Layout files (*%1)</source>
        <translation>Layout-Dateien (*%1)</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Import config.json</source>
        <translation>config.json importieren</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Hugging Face config (*.json)</source>
        <translation>Hugging-Face-Konfiguration (*.json)</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>%1 is in the model list already, as &apos;%2&apos;.</source>
        <translation>%1 steht schon in der Modellliste, als „%2“.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Imported %1.</source>
        <translation>%1 importiert.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Assumed: %1</source>
        <translation>Angenommen: %1</translation>
    </message>
    <message>
        <location filename="../app/designer/designerpanel.cpp" line="+62"/>
        <source>e.g. 4x8 h100-sxm @ 23.92/h</source>
        <translation>z. B. 4x8 h100-sxm @ 23.92/h</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Hypothetical machines: nodes × devices and a device kind (cpu, a100-40, a100-80, h100-sxm, h100-pcie, h200, b200, gb200, mi300x, l40s, rtx4090), optionally a price per node-hour (&quot;@ 23.92/h&quot;); press Enter</source>
        <translation>Hypothetische Maschinen: Knoten × Geräte und eine Geräteart (cpu, a100-40, a100-80, h100-sxm, h100-pcie, h200, b200, gb200, mi300x, l40s, rtx4090), optional ein Preis pro Knotenstunde (&quot;@ 23.92/h&quot;); Eingabetaste drücken</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>M&amp;odel:</source>
        <translation>M&amp;odell:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Mac&amp;hines:</source>
        <translation>Masc&amp;hinen:</translation>
    </message>
    <message>
        <location line="+93"/>
        <source>Drag a layer, or a Shift-selected range, onto a device to make it that device&apos;s pipeline stage</source>
        <translation>Eine Schicht oder einen mit Shift gewählten Bereich auf ein Gerät ziehen, um sie zur Pipeline-Stufe dieses Geräts zu machen</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Assign</source>
        <translation>Zuweisen</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Layers:</source>
        <translation>&amp;Schichten:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>De&amp;vice:</source>
        <translation>Ge&amp;rät:</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>O&amp;utline:</source>
        <translation>Gli&amp;ederung:</translation>
    </message>
    <message>
        <location line="+87"/>
        <source>Zoom in</source>
        <translation>Vergrößern</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Enlarge the machines (also Ctrl+wheel)</source>
        <translation>Die Maschinen vergrößern (auch Ctrl+Mausrad)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Zoom out</source>
        <translation>Verkleinern</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Shrink the machines (also Ctrl+wheel)</source>
        <translation>Die Maschinen verkleinern (auch Ctrl+Mausrad)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fit</source>
        <translation>Einpassen</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Ctrl+0</source>
        <translation>Ctrl+0</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Arrange and zoom the machines to fill the view</source>
        <translation>Die Maschinen anordnen und so zoomen, dass sie die Ansicht füllen</translation>
    </message>
    <message>
        <location line="+68"/>
        <source>No machines: type some (e.g. 4x8 h100-sxm) or use the live cluster.</source>
        <translation>Keine Maschinen: welche eingeben (z. B. 4x8 h100-sxm) oder den laufenden Cluster nutzen.</translation>
    </message>
    <message>
        <location line="+43"/>
        <source>Pipeline schedule: %1, stages: %2, micro-batches: %3</source>
        <translation>Pipeline-Ablauf: %1, Stufen: %2, Micro-Batches: %3</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>%1 on device %2: release to drop, Esc to cancel</source>
        <translation>%1 auf Gerät %2: loslassen zum Ablegen, Esc zum Abbrechen</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Assign layer %1 to %2</source>
        <translation>Schicht %1 %2 zuweisen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Assign layers %1–%2 to %3</source>
        <translation>Schichten %1–%2 %3 zuweisen</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Select layers in the list first (Shift+arrows select a range).</source>
        <translation>Zuerst Schichten in der Liste wählen (Shift+Pfeiltasten wählen einen Bereich).</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Pick a device to assign the layers to.</source>
        <translation>Ein Gerät wählen, dem die Schichten zugewiesen werden.</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Tensor-parallel width (all stages)</source>
        <translation>Tensor-parallele Breite (alle Stufen)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Set TP to %1</source>
        <translation>TP auf %1 setzen</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+6"/>
        <source>Remove stage %1</source>
        <translation>Stufe %1 entfernen</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Assign selected layers here</source>
        <translation>Gewählte Schichten hierher zuweisen</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>%1 (idle)</source>
        <translation>%1 (unbenutzt)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 · stage %2</source>
        <translation>%1 · Stufe %2</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>%1 #%2</source>
        <translation>%1 #%2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 #%2 r%3</source>
        <translation>%1 #%2 r%3</translation>
    </message>
    <message>
        <location filename="../app/designer/designerfile.cpp" line="+21"/>
        <source>start a new layout</source>
        <translation>ein neues Layout beginnen</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>New layout.</source>
        <translation>Neues Layout.</translation>
    </message>
</context>
<context>
    <name>tessera::designer::DeviceItem</name>
    <message>
        <location filename="../app/designer/deviceitem.cpp" line="+27"/>
        <source>Drop layers here to make them this device&apos;s pipeline stage; right-click for the stage&apos;s menu.</source>
        <translation>Schichten hier ablegen, um sie zur Pipeline-Stufe dieses Geräts zu machen; Rechtsklick öffnet das Menü der Stufe.</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Device #%1: idle. Drop layers here to start a stage on it.</source>
        <translation>Gerät #%1: frei. Schichten hier ablegen, um darauf eine Stufe zu beginnen.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Device #%1: rank %2, pipeline stage %3 (%4), TP rank %5, DP replica %6. Drop layers here to make them this stage&apos;s; right-click for the stage&apos;s menu.</source>
        <translation>Gerät #%1: Rank %2, Pipeline-Stufe %3 (%4), TP-Rank %5, DP-Replikat %6. Schichten hier ablegen, um sie dieser Stufe zu geben; Rechtsklick für das Menü der Stufe.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>layer %1</source>
        <translation>Schicht %1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>layers %1–%2</source>
        <translation>Schichten %1–%2</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>It holds expert %1 of each MoE layer (EP rank %2).</source>
        <translation>Es hält den Experten %1 jeder MoE-Schicht (EP-Rang %2).</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>It holds experts %1–%2 of each MoE layer (EP rank %3).</source>
        <translation>Es hält die Experten %1–%2 jeder MoE-Schicht (EP-Rang %3).</translation>
    </message>
    <message>
        <location line="+15"/>
        <source> · E%1</source>
        <translation> · E%1</translation>
    </message>
    <message>
        <location line="+64"/>
        <source>#%1 idle</source>
        <translation>#%1 unbenutzt</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>#%1 · rank %2</source>
        <translation>#%1 · Rank %2</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>past the world size</source>
        <translation>jenseits der Weltgröße</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>stage %1 · TP %2 · DP %3</source>
        <translation>Stufe %1 · TP %2 · DP %3</translation>
    </message>
    <message>
        <location line="-75"/>
        <source> · E%1–%2</source>
        <translation> · E%1–%2</translation>
    </message>
    <message>
        <location line="+82"/>
        <source>no estimate</source>
        <translation>keine Schätzung</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
</context>
<context>
    <name>tessera::designer::DrawnLayout</name>
    <message>
        <location filename="../app/designer/drawnlayout.cpp" line="+315"/>
        <source>This layout is interleaved (%1 model chunks per stage): choose the 1F1B schedule to redraw its stages by hand, or let Auto-plan place the chunks.</source>
        <translation>Dieses Layout ist verschränkt (%1 Modellteile je Stufe): wählen Sie den 1F1B-Ablauf, um seine Stufen von Hand neu zu zeichnen, oder lassen Sie Auto-Plan die Teile verteilen.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>interleaved</source>
        <translation>verschränkt</translation>
    </message>
    <message>
        <location line="-297"/>
        <source>layer %1</source>
        <translation>Schicht %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>layers %1–%2</source>
        <translation>Schichten %1–%2</translation>
    </message>
    <message>
        <location line="+86"/>
        <source>%1 would be in no stage: a stage of their own needs %2 idle devices (DP %3 × TP %4) and %5 are idle. Drop a range that ends where a stage ends, lower DP or TP, or add machines.</source>
        <translation>%1 wären in keiner Stufe: eine eigene Stufe braucht %2 freie Geräte (DP %3 × TP %4), frei sind %5. Legen Sie einen Bereich ab, der an einer Stufengrenze endet, senken Sie DP oder TP oder fügen Sie Maschinen hinzu.</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>✕ not enough idle devices (%1 short)</source>
        <translation>✕ nicht genug freie Geräte (%1 zu wenig)</translation>
    </message>
    <message>
        <location line="+177"/>
        <source>Choose a model and a device to drop on first.</source>
        <translation>Wählen Sie zuerst ein Modell und ein Gerät zum Ablegen.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>no model</source>
        <translation>kein Modell</translation>
    </message>
    <message>
        <location line="+44"/>
        <source>A new stage for %1 needs %2 idle devices (DP %3 × TP %4): this one and %5 more are idle. Drop on a device of a stage, lower DP or TP, or add machines.</source>
        <translation>Eine neue Stufe für %1 braucht %2 freie Geräte (DP %3 × TP %4): frei sind dieses und %5 weitere. Legen Sie auf ein Gerät einer Stufe ab, senken Sie DP oder TP oder fügen Sie Maschinen hinzu.</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>→ stage %1 · %2</source>
        <translation>→ Stufe %1 · %2</translation>
    </message>
    <message>
        <location line="+67"/>
        <source>The layout needs %1 ranks but the workers have %2 devices: lower DP, TP or the stages, or rent more workers</source>
        <translation>Das Layout braucht %1 Ranks, die Worker haben aber %2 Geräte: senken Sie DP, TP oder die Stufen, oder mieten Sie mehr Worker</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Worker %1 runs ranks %2 and %3 but not rank %4 between them: Open MPI starts a worker&apos;s ranks as one block. Draw a worker&apos;s devices as consecutive ranks (rank = (DP replica × stages + stage) × TP + TP rank), e.g. a TP group or a whole stage per worker</source>
        <translation>Worker %1 führt die Ranks %2 und %3 aus, aber nicht Rank %4 dazwischen: Open MPI startet die Ranks eines Workers als einen Block. Zeichnen Sie die Geräte eines Workers als aufeinanderfolgende Ranks (Rank = (DP-Replikat × Stufen + Stufe) × TP + TP-Rank), z. B. eine TP-Gruppe oder eine ganze Stufe pro Worker</translation>
    </message>
</context>
<context>
    <name>tessera::designer::EstimatePanel</name>
    <message>
        <location filename="../app/designer/estimatepanel.cpp" line="+40"/>
        <source>Step time:</source>
        <translation>Schrittzeit:</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Split:</source>
        <translation>Aufteilung:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Bubble:</source>
        <translation>Blase:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Throughput:</source>
        <translation>Durchsatz:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>MFU:</source>
        <translation>MFU:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cost:</source>
        <translation>Kosten:</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Memory per device:</source>
        <translation>Speicher pro Gerät:</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Problems:</source>
        <translation>&amp;Probleme:</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>No estimate yet.</source>
        <translation>Noch keine Schätzung.</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>&lt;b&gt;Preview&lt;/b&gt;: what the layout would be if dropped here.</source>
        <translation>&lt;b&gt;Vorschau&lt;/b&gt;: so wäre das Layout nach dem Ablegen hier.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>compute %1 · TP %2 · PP %3 · DP %4 · bubble %5 · optimizer + loss %6</source>
        <translation>Rechnen %1 · TP %2 · PP %3 · DP %4 · Blase %5 · Optimierer + Loss %6</translation>
    </message>
    <message>
        <location line="+7"/>
        <source> · EP all-to-all %1</source>
        <translation> · EP-All-to-All %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source> · CP ring %1</source>
        <translation> · CP-Ring %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+6"/>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
    <message>
        <location line="-5"/>
        <source>%1 samples/s</source>
        <translation>%1 Beispiele/s</translation>
    </message>
    <message>
        <location line="+2"/>
        <source> · %1 tokens/s</source>
        <translation> · %1 Tokens/s</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1/h · %2/step</source>
        <translation>%1/h · %2/Schritt</translation>
    </message>
    <message>
        <location line="+2"/>
        <source> · %1/epoch</source>
        <translation> · %1/Epoche</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>unknown (no prices for these machines)</source>
        <translation>unbekannt (keine Preise für diese Maschinen)</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>No problems: the layout can run.</source>
        <translation>Keine Probleme: das Layout kann laufen.</translation>
    </message>
</context>
<context>
    <name>tessera::designer::ExportDialog</name>
    <message>
        <location filename="../app/designer/exportdialog.cpp" line="+42"/>
        <source>&amp;Copy</source>
        <translation>&amp;Kopieren</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>&amp;Save…</source>
        <translation>&amp;Speichern …</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Export layout</source>
        <translation>Layout exportieren</translation>
    </message>
    <message>
        <location line="+8"/>
        <location line="+39"/>
        <source>Megatron-LM</source>
        <translation>Megatron-LM</translation>
    </message>
    <message>
        <location line="-39"/>
        <location line="+39"/>
        <source>DeepSpeed</source>
        <translation>DeepSpeed</translation>
    </message>
    <message>
        <location line="-39"/>
        <location line="+39"/>
        <source>torchtitan</source>
        <translation>torchtitan</translation>
    </message>
    <message>
        <location line="-31"/>
        <source>Not in ds_config.json (set in your code):</source>
        <translation>Nicht in ds_config.json (in Ihrem Code zu setzen):</translation>
    </message>
    <message>
        <location line="+40"/>
        <source>%1 cannot express this layout:</source>
        <translation>%1 kann dieses Layout nicht ausdrücken:</translation>
    </message>
    <message>
        <location line="+62"/>
        <source>Copied the %1 text.</source>
        <translation>Der %1-Text wurde kopiert.</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Save the %1 export</source>
        <translation>Den %1-Export speichern</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Nothing to save: %1 cannot express this layout.</source>
        <translation>Nichts zu speichern: %1 kann dieses Layout nicht ausdrücken.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Saving %1…</source>
        <translation>%1 wird gespeichert …</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Saved %1.</source>
        <translation>%1 gespeichert.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Cannot write &apos;%1&apos;: %2</source>
        <translation>„%1“ lässt sich nicht schreiben: %2</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>write failed</source>
        <translation>Schreiben fehlgeschlagen</translation>
    </message>
</context>
<context>
    <name>tessera::designer::LayerPaletteModel</name>
    <message>
        <location filename="../app/designer/layerpalettemodel.cpp" line="+81"/>
        <source>%1  %2 · %3</source>
        <translation>%1  %2 · %3</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>in no stage (drop it on a device)</source>
        <translation>in keiner Stufe (auf ein Gerät ziehen)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>stage %1</source>
        <translation>Stufe %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 (%2): %3 parameters, %4 FLOP forward and %5 of activations per sample; %6</source>
        <translation>%1 (%2): %3 Parameter, %4 FLOP vorwärts und %5 Aktivierungen pro Beispiel; %6</translation>
    </message>
    <message>
        <location line="+40"/>
        <source>layers %1–%2</source>
        <translation>Schichten %1–%2</translation>
    </message>
</context>
<context>
    <name>tessera::designer::LayerPaletteView</name>
    <message>
        <location filename="../app/designer/layerpaletteview.cpp" line="+21"/>
        <source>layer %1</source>
        <translation>Schicht %1</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>layers %1–%2</source>
        <translation>Schichten %1–%2</translation>
    </message>
</context>
<context>
    <name>tessera::designer::LayoutControls</name>
    <message>
        <location filename="../app/designer/layoutcontrols.cpp" line="+43"/>
        <source>Interl.</source>
        <translation>Verschr.</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>1F1B</source>
        <translation>1F1B</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>GPipe</source>
        <translation>GPipe</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>ZB-H1</source>
        <translation>ZB-H1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;DP:</source>
        <translation>&amp;DP:</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Data-parallel degree: replicas of the whole pipeline</source>
        <translation>Datenparallelität: Kopien der ganzen Pipeline</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;TP:</source>
        <translation>&amp;TP:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tensor-parallel width of every stage (the engine runs one TP group size)</source>
        <translation>Tensor-parallele Breite jeder Stufe (die Engine fährt eine TP-Gruppengröße)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Micro-batches:</source>
        <translation>&amp;Micro-Batches:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Micro-batches per step; more shrink the pipeline bubble (p−1)/(m+p−1)</source>
        <translation>Micro-Batches pro Schritt; mehr verkleinern die Pipeline-Blase (p−1)/(m+p−1)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Micro-batch size: samples (sequences) per micro-batch on each data-parallel rank, global batch / (DP × micro-batches); red when it is not whole</source>
        <translation>Micro-Batch-Größe: Beispiele (Sequenzen) pro Micro-Batch auf jedem datenparallelen Rank, globaler Batch / (DP × Micro-Batches); rot, wenn sie nicht ganzzahlig ist</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Sc&amp;hed.:</source>
        <translation>&amp;Ablauf:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Pipeline schedule: 1F1B keeps at most PP micro-batches in flight, GPipe all of them; ZB-H1 splits the backward and fills the bubble with weight gradients (Qi et al. 2024); Interl. (interleaved 1F1B) cuts the layers into 2 model chunks per stage, which shrinks the bubble to (p−1)/(2m) (Narayanan et al. 2021)</source>
        <translation>Pipeline-Ablauf: 1F1B hält höchstens PP Micro-Batches gleichzeitig, GPipe alle; ZB-H1 teilt den Rückwärtsschritt und füllt die Blase mit Gewichtsgradienten (Qi et al. 2024); Verschr. (verschränktes 1F1B) teilt die Schichten in 2 Modellteile je Stufe, was die Blase auf (p−1)/(2m) verkleinert (Narayanan et al. 2021)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;ZeRO:</source>
        <translation>&amp;ZeRO:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>ZeRO stage: 1 shards optimizer state, 2 also gradients, 3 also weights across DP</source>
        <translation>ZeRO-Stufe: 1 verteilt den Optimiererzustand, 2 auch die Gradienten, 3 auch die Gewichte über DP</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Batch:</source>
        <translation>&amp;Batch:</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Global batch: samples per optimizer step</source>
        <translation>Globaler Batch: Beispiele pro Optimiererschritt</translation>
    </message>
    <message>
        <location line="+46"/>
        <source>×%1</source>
        <translation>×%1</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Set DP to %1</source>
        <translation>DP auf %1 setzen</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Set TP to %1</source>
        <translation>TP auf %1 setzen</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Set micro-batches to %1</source>
        <translation>Micro-Batches auf %1 setzen</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Set schedule to %1</source>
        <translation>Ablauf auf %1 setzen</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Set ZeRO stage to %1</source>
        <translation>ZeRO-Stufe auf %1 setzen</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Set global batch to %1</source>
        <translation>Globalen Batch auf %1 setzen</translation>
    </message>
</context>
<context>
    <name>tessera::designer::LayoutExport</name>
    <message>
        <location filename="../backend/export/exportplan.cpp" line="+349"/>
        <source>no model chosen: pick one from the Model list or import a config.json</source>
        <translation>kein Modell gewählt: eines aus der Modellliste wählen oder eine config.json importieren</translation>
    </message>
    <message>
        <location line="-100"/>
        <source>stage %1 holds layers %2-%3, but the stages must cover the model&apos;s %4 layers in order: stage %1 has to start at layer %5</source>
        <translation>Stufe %1 enthält die Schichten %2–%3, die Stufen müssen aber die %4 Schichten des Modells der Reihe nach abdecken: Stufe %1 muss bei Schicht %5 beginnen</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>the stages end at layer %1 but the model has %2 layers (0-%3): give the last stage the rest</source>
        <translation>die Stufen enden bei Schicht %1, das Modell hat aber %2 Schichten (0–%3): der letzten Stufe den Rest geben</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>the global batch %1 is not divisible by DP %2 x %3 micro-batches = %4: a micro-batch would hold %5 samples; make the batch a multiple of %4 (e.g. %6) or change DP or the micro-batches</source>
        <translation>der globale Batch %1 ist nicht durch DP %2 × %3 Micro-Batches = %4 teilbar: ein Micro-Batch hätte %5 Samples; den Batch auf ein Vielfaches von %4 setzen (z. B. %6) oder DP bzw. die Micro-Batches ändern</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>ZeRO stage %1 is not 0, 1, 2 or 3</source>
        <translation>ZeRO-Stufe %1 ist nicht 0, 1, 2 oder 3</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 virtual stages need the interleaved schedule and a multiple of %1 model chunks over at least 2 pipeline stages; the layout has %2 chunks</source>
        <translation>%1 virtuelle Stufen brauchen den verschränkten Ablauf und ein Vielfaches von %1 Modellteilen über mindestens 2 Pipeline-Stufen; das Layout hat %2 Teile</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>recompute &apos;%1&apos; is not none, selective or full</source>
        <translation>Neuberechnung „%1“ ist nicht none, selective oder full</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>precision &apos;%1&apos; is not fp32, tf32, bf16 or fp8</source>
        <translation>Präzision &apos;%1&apos; ist nicht fp32, tf32, bf16 oder fp8</translation>
    </message>
    <message>
        <location line="+73"/>
        <source>the DeepSeek config has %1, which Megatron-LM&apos;s and torchtitan&apos;s DeepSeek models do not build (no biases; softmax or sigmoid scores; greedy, group_limited_greedy or noaux_tc routing)</source>
        <translation>die DeepSeek-Konfiguration hat %1, was die DeepSeek-Modelle von Megatron-LM und torchtitan nicht bauen (keine Biases; Softmax- oder Sigmoid-Scores; Routing greedy, group_limited_greedy oder noaux_tc)</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>expert parallel %1 needs a mixture-of-experts model; %2 has no routed experts: set EP to 1</source>
        <translation>Expertenparallelität %1 braucht ein Mixture-of-Experts-Modell; %2 hat keine gerouteten Experten: EP auf 1 setzen</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>expert parallel %1 must divide the %2 experts and DP %3 x CP %4</source>
        <translation>Expertenparallelität %1 muss die %2 Experten und DP %3 x CP %4 teilen</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>WARNING: the planner says this layout cannot run on the planned machines; the job would fail as drawn:</source>
        <translation>WARNUNG: Laut Planer läuft dieses Layout nicht auf den geplanten Maschinen; der Job würde so scheitern:</translation>
    </message>
    <message>
        <location line="-110"/>
        <source>optimizer &apos;%1&apos; is not sgd or adamw</source>
        <translation>Optimierer „%1“ ist nicht sgd oder adamw</translation>
    </message>
    <message>
        <location filename="../backend/export/megatronexport.cpp" line="+257"/>
        <source>Megatron-LM&apos;s pretrain_gpt.py trains decoder language models; model family &apos;%1&apos; has no Megatron-LM arguments (pick a GPT, GPT-2, LLaMA, Mistral, Mixtral, Qwen2, Qwen3, Qwen2-MoE, Qwen3-MoE, Phi-3, DeepSeek-V2 or DeepSeek-V3 model)</source>
        <translation>pretrain_gpt.py von Megatron-LM trainiert Decoder-Sprachmodelle; die Modellfamilie „%1“ hat keine Megatron-LM-Argumente (ein GPT-, GPT-2-, LLaMA-, Mistral-, Mixtral-, Qwen2-, Qwen3-, Qwen2-MoE-, Qwen3-MoE-, Phi-3-, DeepSeek-V2- oder DeepSeek-V3-Modell wählen)</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>TP %1 does not divide the model&apos;s %2 attention heads: Megatron-LM needs them to be a multiple of --tensor-model-parallel-size</source>
        <translation>TP %1 teilt die %2 Attention-Köpfe des Modells nicht: Megatron-LM verlangt, dass ihre Zahl ein Vielfaches von --tensor-model-parallel-size ist</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>TP %1 does not divide the model&apos;s %2 key/value heads (query groups): Megatron-LM needs them to be a multiple of --tensor-model-parallel-size</source>
        <translation>TP %1 teilt die %2 Key/Value-Köpfe (Query-Gruppen) des Modells nicht: Megatron-LM verlangt, dass ihre Zahl ein Vielfaches von --tensor-model-parallel-size ist</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>TP %1 does not divide the model&apos;s %2 MLP width (--ffn-hidden-size): Megatron-LM needs them to be a multiple of --tensor-model-parallel-size</source>
        <translation>TP %1 teilt die MLP-Breite %2 (--ffn-hidden-size) des Modells nicht: Megatron-LM verlangt, dass sie ein Vielfaches von --tensor-model-parallel-size ist</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>the model&apos;s blocks use sliding windows of %1 and %2 tokens: Megatron-LM has one --window-size for all</source>
        <translation>die Blöcke des Modells nutzen Sliding Windows von %1 und %2 Token: Megatron-LM hat ein --window-size für alle</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>stage %1 holds the multi-token-prediction module without the head: Megatron-LM builds it before the loss, on the head&apos;s stage or earlier (--pipeline-model-parallel-layout puts m before L), so this split has no Megatron-LM arguments; move it to the head&apos;s stage</source>
        <translation>Stufe %1 enthält das Multi-Token-Prediction-Modul ohne den Head: Megatron-LM baut es vor dem Loss, auf der Stufe des Heads oder davor (--pipeline-model-parallel-layout setzt m vor L), daher hat diese Aufteilung keine Megatron-LM-Argumente; das Modul auf die Stufe des Heads verschieben</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>stage %1 ends with ln_f and stage %2 holds the head alone: Megatron-LM builds the final norm on the stage of the output layer (megatron/core/transformer/transformer_block.py: final_layernorm only where post_process), so this split has no Megatron-LM arguments; move ln_f to the head&apos;s stage</source>
        <translation>Stufe %1 endet mit ln_f und Stufe %2 enthält nur den Head: Megatron-LM baut die finale Norm auf der Stufe der Ausgabeschicht (megatron/core/transformer/transformer_block.py: final_layernorm nur bei post_process), daher hat diese Aufteilung keine Megatron-LM-Argumente; ln_f auf die Stufe des Heads verschieben</translation>
    </message>
    <message>
        <location filename="../backend/export/deepspeedexport.cpp" line="+28"/>
        <source>DeepSpeed&apos;s pipeline engine refuses ZeRO-%1 with %2 pipeline stages (deepspeed/runtime/pipe/engine.py: &quot;ZeRO-2 and ZeRO-3 are incompatible with pipeline parallelism&quot;): use ZeRO 0 or 1, or one stage</source>
        <translation>die Pipeline-Engine von DeepSpeed lehnt ZeRO-%1 mit %2 Pipeline-Stufen ab (deepspeed/runtime/pipe/engine.py: &quot;ZeRO-2 and ZeRO-3 are incompatible with pipeline parallelism&quot;): ZeRO 0 oder 1 oder eine einzige Stufe verwenden</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>DeepSpeed has no ring context parallelism: its sequence parallelism is Ulysses (an all-to-all of attention heads, docs/_tutorials/ds-sequence.md), which the planner does not model; set CP to 1 to export CP %1 layouts</source>
        <translation>DeepSpeed hat keine Ring-Kontextparallelität: seine Sequenzparallelität ist Ulysses (ein All-to-All der Attention-Köpfe, docs/_tutorials/ds-sequence.md), die der Planer nicht modelliert; CP auf 1 setzen, um Layouts mit CP %1 zu exportieren</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>DeepSpeed&apos;s pipeline engine runs one contiguous stage per rank (deepspeed/runtime/pipe/module.py): it has no interleaved schedule for %1 model chunks per stage; choose 1F1B</source>
        <translation>Die Pipeline-Engine von DeepSpeed führt eine zusammenhängende Stufe pro Rank aus (deepspeed/runtime/pipe/module.py): sie hat keinen verschränkten Ablauf für %1 Modellteile pro Stufe; 1F1B wählen</translation>
    </message>
    <message>
        <location line="+90"/>
        <source>Keys: deepspeedai/DeepSpeed docs/_pages/config-json.md (https://www.deepspeed.ai/docs/config-json/); %1 ranks = DP %2 x PP %3 x TP %4.</source>
        <translation>Schlüssel: deepspeedai/DeepSpeed docs/_pages/config-json.md (https://www.deepspeed.ai/docs/config-json/); %1 Ranks = DP %2 × PP %3 × TP %4.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Expert parallelism is the model&apos;s own: deepspeed.moe.layer.MoE(..., num_experts=%1, ep_size=%2, k=%3) in each MoE layer (deepspeed/moe/layer.py); config-json.md has no key for it.</source>
        <translation>Expertenparallelität ist Sache des Modells: deepspeed.moe.layer.MoE(..., num_experts=%1, ep_size=%2, k=%3) in jeder MoE-Schicht (deepspeed/moe/layer.py); config-json.md hat keinen Schlüssel dafür.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>train_batch_size is left for DeepSpeed to infer (config-json.md &quot;Batch Size Related Parameters&quot;): without an mpu its batch arithmetic counts all %1 ranks although the %2 TP ranks of a group share each micro-batch (deepspeed/runtime/config.py world_size); the drawn global batch is %3 = %4 x %5 x DP %6.</source>
        <translation>train_batch_size fehlt, DeepSpeed leitet ihn selbst ab (config-json.md &quot;Batch Size Related Parameters&quot;): ohne mpu zählt seine Batch-Rechnung alle %1 Ranks, obwohl sich die %2 TP-Ranks einer Gruppe jeden Micro-Batch teilen (deepspeed/runtime/config.py world_size); der gezeichnete globale Batch ist %3 = %4 × %5 × DP %6.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>train_batch_size %1 = train_micro_batch_size_per_gpu %2 x gradient_accumulation_steps %3 x %4 data-parallel ranks (deepspeed/runtime/config.py _batch_assertion; with pipeline stages DeepSpeed counts data-parallel ranks only).</source>
        <translation>train_batch_size %1 = train_micro_batch_size_per_gpu %2 × gradient_accumulation_steps %3 × %4 datenparallele Ranks (deepspeed/runtime/config.py _batch_assertion; mit Pipeline-Stufen zählt DeepSpeed nur die datenparallelen Ranks).</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Pipeline: config-json.md has no pipeline section; the %1 stages are PipelineModule(layers=..., num_stages=%2, partition_method=...) in code (docs/_tutorials/pipeline.md, deepspeed/runtime/pipe/module.py), its micro-batches are gradient_accumulation_steps.</source>
        <translation>Pipeline: config-json.md hat keinen Pipeline-Abschnitt; die %1 Stufen entstehen im Code mit PipelineModule(layers=..., num_stages=%2, partition_method=...) (docs/_tutorials/pipeline.md, deepspeed/runtime/pipe/module.py), ihre Micro-Batches sind gradient_accumulation_steps.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>With the model&apos;s %1 layers as the PipelineModule&apos;s layers, partition_method=&quot;uniform&quot; gives the drawn split (%2 layers per stage).</source>
        <translation>Mit den %1 Schichten des Modells als Schichten des PipelineModule ergibt partition_method=&quot;uniform&quot; die gezeichnete Aufteilung (%2 Schichten pro Stufe).</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>NOT EXPRESSIBLE by partition_method: the drawn split has %1 layers per stage, &quot;uniform&quot; gives %2 (deepspeed/runtime/utils.py partition_uniform) and &quot;parameters&quot; / &quot;type:[regex]&quot; balance weights instead; set the boundaries in your own PipelineModule code.</source>
        <translation>MIT partition_method NICHT AUSDRÜCKBAR: die gezeichnete Aufteilung hat %1 Schichten pro Stufe, &quot;uniform&quot; ergibt %2 (deepspeed/runtime/utils.py partition_uniform), und &quot;parameters&quot; / &quot;type:[regex]&quot; gleichen stattdessen die Gewichte aus; die Grenzen in Ihrem eigenen PipelineModule-Code setzen.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Schedule: DeepSpeed&apos;s TrainSchedule (deepspeed/runtime/pipe/schedule.py) runs the micro-batches; the drawn %1 order has no key.</source>
        <translation>Ablauf: DeepSpeeds TrainSchedule (deepspeed/runtime/pipe/schedule.py) führt die Micro-Batches aus; für die gezeichnete %1-Reihenfolge gibt es keinen Schlüssel.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Tensor parallelism with pipeline stages is the model&apos;s own (PipelineModule(topology=PipeModelDataParallelTopology(num_pp=%1, num_mp=%2, num_dp=%3)), deepspeed/runtime/pipe/topology.py); AutoTP (tensor_parallel.autotp_size) is documented without pipeline stages, so the JSON leaves it out.</source>
        <translation>Tensorparallelität mit Pipeline-Stufen ist Sache des Modells (PipelineModule(topology=PipeModelDataParallelTopology(num_pp=%1, num_mp=%2, num_dp=%3)), deepspeed/runtime/pipe/topology.py); AutoTP (tensor_parallel.autotp_size) ist nur ohne Pipeline-Stufen dokumentiert, daher lässt das JSON es weg.</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Rank order: DeepSpeed&apos;s topology axes are pipe, data, model (stage outermost), Tessera&apos;s are data, stage, TP: the same degrees, other ranks per stage.</source>
        <translation>Rank-Reihenfolge: DeepSpeeds Topologie-Achsen sind pipe, data, model (Stufe zuäußerst), die von Tessera Daten, Stufe, TP: dieselben Grade, aber andere Ranks pro Stufe.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>tensor_parallel.autotp_size %1: AutoTP shards the Hugging Face model&apos;s linear layers (config-json.md &quot;Tensor Parallel (AutoTP)&quot;, docs/_tutorials/autotp-training.md).</source>
        <translation>tensor_parallel.autotp_size %1: AutoTP teilt die linearen Schichten des Hugging-Face-Modells auf (config-json.md &quot;Tensor Parallel (AutoTP)&quot;, docs/_tutorials/autotp-training.md).</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>ZeRO-3 with AutoTP: config-json.md lists ZeRO stages 0-3 for AutoTP, the AutoTP training tutorial names stages 0-2 (check your DeepSpeed version).</source>
        <translation>ZeRO-3 mit AutoTP: config-json.md nennt für AutoTP die ZeRO-Stufen 0–3, das AutoTP-Trainings-Tutorial nur die Stufen 0–2 (prüfen Sie Ihre DeepSpeed-Version).</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Sequence parallelism (Megatron-style, inside TP) has no DeepSpeed key; sequence_parallel_size is DeepSpeed-Ulysses, another split, and is not set.</source>
        <translation>Sequenzparallelität (nach Art von Megatron, innerhalb von TP) hat keinen DeepSpeed-Schlüssel; sequence_parallel_size ist DeepSpeed-Ulysses, eine andere Aufteilung, und wird nicht gesetzt.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Recompute (selective) is in the model code: deepspeed.checkpointing.checkpoint or PipelineModule(activation_checkpoint_interval=1); the activation_checkpointing section only tunes it.</source>
        <translation>Selektive Neuberechnung (selective) gehört in den Modellcode: deepspeed.checkpointing.checkpoint oder PipelineModule(activation_checkpoint_interval=1); der Abschnitt activation_checkpointing stimmt sie nur ab.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Recompute (full) is in the model code: deepspeed.checkpointing.checkpoint or PipelineModule(activation_checkpoint_interval=1); the activation_checkpointing section only tunes it.</source>
        <translation>Vollständige Neuberechnung (full) gehört in den Modellcode: deepspeed.checkpointing.checkpoint oder PipelineModule(activation_checkpoint_interval=1); der Abschnitt activation_checkpointing stimmt sie nur ab.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Precision tf32: no DeepSpeed key; without bf16/fp16 sections it trains in fp32.</source>
        <translation>Genauigkeit tf32: kein DeepSpeed-Schlüssel; ohne bf16/fp16-Abschnitt trainiert DeepSpeed in fp32.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Precision fp32: DeepSpeed&apos;s default (no bf16/fp16 section).</source>
        <translation>Genauigkeit fp32: Standard von DeepSpeed (kein bf16/fp16-Abschnitt).</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Precision fp8: ds_config.json has no FP8 key; bf16 is enabled and the FP8 GEMMs come from your model code (NVIDIA Transformer Engine&apos;s fp8_autocast around the layers).</source>
        <translation>Präzision fp8: ds_config.json hat keinen FP8-Schlüssel; bf16 ist eingeschaltet, und die FP8-GEMMs kommen aus Ihrem Modellcode (fp8_autocast von NVIDIA Transformer Engine um die Schichten).</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>optimizer.params (lr, betas, weight_decay) are not part of the layout: add them.</source>
        <translation>optimizer.params (lr, betas, weight_decay) gehören nicht zum Layout: ergänzen Sie sie.</translation>
    </message>
    <message>
        <location filename="../backend/export/torchtitanexport.cpp" line="+31"/>
        <source>torchtitan runs plain data parallelism (DDP, ZeRO 0) only when it is the sole parallelism (torchtitan/models/llama3/infra/parallelize.py: &quot;DDP has not supported &gt; 1D parallelism&quot;); with TP or pipeline stages its data parallelism is FSDP: set ZeRO to 1, 2 or 3 to export DP %1</source>
        <translation>torchtitan fährt reine Datenparallelität (DDP, ZeRO 0) nur, wenn sie die einzige Parallelität ist (torchtitan/models/llama3/infra/parallelize.py: &quot;DDP has not supported &gt; 1D parallelism&quot;); mit TP oder Pipeline-Stufen ist seine Datenparallelität FSDP: ZeRO auf 1, 2 oder 3 setzen, um DP %1 zu exportieren</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>torchtitan names pipeline stages by its decoder modules (tok_embeddings, layers.N, norm, output); model family &apos;%1&apos; has no such names: export it with one stage</source>
        <translation>torchtitan benennt Pipeline-Stufen nach seinen Decoder-Modulen (tok_embeddings, layers.N, norm, output); die Modellfamilie „%1“ hat keine solchen Namen: mit einer einzigen Stufe exportieren</translation>
    </message>
</context>
<context>
    <name>tessera::designer::LayoutOutline</name>
    <message>
        <location filename="../app/designer/layoutoutline.cpp" line="+23"/>
        <source>Stage / replica / rank</source>
        <translation>Stufe / Replikat / Rank</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Layers / device</source>
        <translation>Schichten / Gerät</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The layout as an outline: F2 on a stage edits its layers (e.g. 3-5), F2 on a rank types its device&apos;s number, Delete removes a stage</source>
        <translation>Das Layout als Gliederung: F2 auf einer Stufe bearbeitet ihre Schichten (z. B. 3-5), F2 auf einem Rank nimmt die Nummer seines Geräts, Entf entfernt eine Stufe</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>Stage %1</source>
        <translation>Stufe %1</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>DP replica %1</source>
        <translation>DP-Replikat %1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>TP %1 · rank %2</source>
        <translation>TP %1 · Rank %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>no device</source>
        <translation>kein Gerät</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Stage %1: &apos;%2&apos; is not a layer range; write it as 3-5</source>
        <translation>Stufe %1: „%2“ ist kein Schichtbereich; schreiben Sie ihn als 3-5</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>There is no stage %1.</source>
        <translation>Es gibt keine Stufe %1.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Stage %1: the model has layers 0-%2.</source>
        <translation>Stufe %1: das Modell hat die Schichten 0-%2.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Stage %1 holds layers %2</source>
        <translation>Stufe %1 enthält die Schichten %2</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Rank %1: device %2 is not one of the %3 devices (0-%4).</source>
        <translation>Rank %1: Gerät %2 ist keines der %3 Geräte (0-%4).</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Run rank %1 on device %2</source>
        <translation>Rank %1 auf Gerät %2 ausführen</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Remove stage %1</source>
        <translation>Stufe %1 entfernen</translation>
    </message>
</context>
<context>
    <name>tessera::designer::MemoryBars</name>
    <message>
        <location filename="../app/designer/memorybars.cpp" line="+54"/>
        <source>weights</source>
        <translation>Gewichte</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>grads</source>
        <translation>Gradienten</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>optimizer</source>
        <translation>Optimierer</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>activations</source>
        <translation>Aktivierungen</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>workspace</source>
        <translation>Arbeitsbereich</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
</context>
<context>
    <name>tessera::designer::ModelCatalog</name>
    <message>
        <location filename="../app/designer/modelcatalog.cpp" line="+29"/>
        <source>%1 (%2, built-in)</source>
        <translation>%1 (%2, eingebaut)</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Cannot read &apos;%1&apos;: %2</source>
        <translation>&apos;%1&apos; lässt sich nicht lesen: %2</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&apos;%1&apos; is larger than 1 MiB: not a config.json</source>
        <translation>&apos;%1&apos; ist größer als 1 MiB: keine config.json</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>&apos;%1&apos; cannot be planned: %2</source>
        <translation>&apos;%1&apos; kann nicht geplant werden: %2</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 (config.json)</source>
        <translation>%1 (config.json)</translation>
    </message>
</context>
<context>
    <name>tessera::designer::PlanDocument</name>
    <message>
        <location filename="../app/designer/plandocument.cpp" line="+109"/>
        <source>No model chosen: pick one from the Model list or import a config.json.</source>
        <translation>Kein Modell gewählt: eines aus der Modellliste wählen oder eine config.json importieren.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The model cannot be planned: %1</source>
        <translation>Das Modell lässt sich nicht planen: %1</translation>
    </message>
</context>
<context>
    <name>tessera::designer::PlanIo</name>
    <message>
        <location filename="../backend/layout/planfile.cpp" line="+63"/>
        <source>cannot write &apos;%1&apos;: %2</source>
        <translation>&apos;%1&apos; lässt sich nicht schreiben: %2</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>layout file &apos;%1&apos; does not exist</source>
        <translation>Layout-Datei &apos;%1&apos; existiert nicht</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>cannot read &apos;%1&apos;: %2</source>
        <translation>&apos;%1&apos; lässt sich nicht lesen: %2</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&apos;%1&apos; is larger than 16 MiB: not a layout file</source>
        <translation>&apos;%1&apos; ist größer als 16 MiB: keine Layout-Datei</translation>
    </message>
    <message>
        <location filename="../app/designer/planio.cpp" line="+83"/>
        <source>Imported config.json models are for planning only: tessera-train runs the built-in MLP, ViT and GPT. Pick a built-in model to launch.</source>
        <translation>Aus einer config.json importierte Modelle sind nur zum Planen: tessera-train fährt die eingebauten MLP, ViT und GPT. Zum Starten ein eingebautes Modell wählen.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>No built-in model chosen.</source>
        <translation>Kein eingebautes Modell gewählt.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The engine runs ZeRO stage 0 or 1; set ZeRO to 0 or 1 to launch.</source>
        <translation>Die Engine fährt ZeRO-Stufe 0 oder 1; zum Starten ZeRO auf 0 oder 1 setzen.</translation>
    </message>
</context>
<context>
    <name>tessera::designer::ProgramLaunchDialog</name>
    <message>
        <location filename="../app/designer/programlaunchdialog.cpp" line="+27"/>
        <source>Launch with program</source>
        <translation>Mit Programm starten</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Started on every rank (mpirun) or by torchrun on every node; a path on the workers or a name on their PATH</source>
        <translation>Auf jedem Rank gestartet (mpirun) oder von torchrun auf jedem Knoten; ein Pfad auf den Workern oder ein Name in ihrem PATH</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>train.py --epochs 2   (quoted as in a shell, no $)</source>
        <translation>train.py --epochs 2   (Anführungszeichen wie in einer Shell, kein $)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>folder with the code, shipped to every node (optional)</source>
        <translation>Ordner mit dem Code, wird an jeden Knoten übertragen (optional)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>mpirun: one process per rank</source>
        <translation>mpirun: ein Prozess pro Rank</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>torchrun: one agent per node</source>
        <translation>torchrun: ein Agent pro Knoten</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Browse…</source>
        <translation>Durchsuchen …</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&amp;Program:</source>
        <translation>&amp;Programm:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Arguments:</source>
        <translation>&amp;Argumente:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Working folder:</source>
        <translation>Arbeits&amp;ordner:</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Launcher:</source>
        <translation>&amp;Starter:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The ranks get torchrun&apos;s variables (RANK, WORLD_SIZE, MASTER_ADDR, …) and the drawn layout in TESSERA_LAYOUT_FILE; they report metrics with the tessera module.</source>
        <translation>Die Ranks erhalten die Variablen von torchrun (RANK, WORLD_SIZE, MASTER_ADDR, …) und das gezeichnete Layout in TESSERA_LAYOUT_FILE; Metriken melden sie mit dem Modul tessera.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Launch</source>
        <translation>Starten</translation>
    </message>
    <message>
        <location line="+62"/>
        <source>Arguments: %1</source>
        <translation>Argumente: %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Working folder &apos;%1&apos; does not exist on this computer.</source>
        <translation>Der Arbeitsordner „%1“ existiert auf diesem Rechner nicht.</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Folder with the program&apos;s code</source>
        <translation>Ordner mit dem Code des Programms</translation>
    </message>
</context>
<context>
    <name>tessera::designer::TrainingControls</name>
    <message>
        <location filename="../app/designer/trainingcontrols.cpp" line="+31"/>
        <source>S&amp;P</source>
        <translation>S&amp;P</translation>
    </message>
    <message>
        <location line="+15"/>
        <location line="+1"/>
        <source>model&apos;s</source>
        <translation>Modell</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>selective</source>
        <translation>selektiv</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>full</source>
        <translation>voll</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>auto</source>
        <translation>auto</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>on</source>
        <translation>an</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>off</source>
        <translation>aus</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Se&amp;q:</source>
        <translation>Se&amp;q.:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Sequence length: tokens per sequence of an imported model (&quot;model&apos;s&quot;: its positions, at most 4096)</source>
        <translation>Sequenzlänge: Tokens pro Sequenz eines importierten Modells (&quot;Modell&quot;: seine Positionen, höchstens 4096)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Pre&amp;c:</source>
        <translation>Prä&amp;z.:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Precision: BF16 mixed precision keeps an FP32 master copy; FP8 runs the GEMMs in FP8 (Hopper, Ada, Blackwell, MI300) and keeps BF16 weights</source>
        <translation>Präzision: BF16 Mixed Precision hält eine FP32-Masterkopie; FP8 rechnet die GEMMs in FP8 (Hopper, Ada, Blackwell, MI300) und hält BF16-Gewichte</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Reco&amp;mp:</source>
        <translation>Neube&amp;r.:</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>F&amp;lash:</source>
        <translation>F&amp;lash:</translation>
    </message>
    <message>
        <location line="-5"/>
        <source>Activation recompute (Korthikanti et al. 2022): selective re-runs attention, full the whole block, trading backward time for activation memory</source>
        <translation>Aktivierungen neu berechnen (Korthikanti et al. 2022): selektiv wiederholt die Attention, voll den ganzen Block; Rückwärtszeit gegen Aktivierungsspeicher</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Sequence parallelism (SP): LayerNorm and dropout activations split over the TP group</source>
        <translation>Sequenzparallelität (SP): LayerNorm- und Dropout-Aktivierungen über die TP-Gruppe verteilt</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>FlashAttention keeps no sequence × sequence attention scores; auto: on for an imported model on GPUs</source>
        <translation>FlashAttention hält keine Sequenz × Sequenz-Attention-Scores; auto: an für ein importiertes Modell auf GPUs</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>C&amp;P:</source>
        <translation>C&amp;P:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Context parallel (CP): each sequence split over this many ranks, attention by a ring exchange of keys and values; multiplies the ranks</source>
        <translation>Kontextparallelität (CP): jede Sequenz auf so viele Ranks verteilt, Attention durch Ringaustausch von Keys und Values; vervielfacht die Ranks</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;EP:</source>
        <translation>&amp;EP:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Expert parallel (EP): a mixture of experts&apos; routed experts split over this many of the DP × CP ranks, tokens sent to them by all-to-all; adds no ranks</source>
        <translation>Expertenparallelität (EP): die gerouteten Experten eines Mixture-of-Experts auf so viele der DP × CP Ranks verteilt, Tokens per All-to-All dorthin geschickt; keine zusätzlichen Ranks</translation>
    </message>
    <message>
        <location line="+52"/>
        <source>Set sequence length to %1</source>
        <translation>Sequenzlänge auf %1 setzen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Use the model&apos;s sequence length</source>
        <translation>Sequenzlänge des Modells verwenden</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Set precision to %1</source>
        <translation>Präzision auf %1 setzen</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Set recompute to %1</source>
        <translation>Neuberechnung auf %1 setzen</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Turn sequence parallelism on</source>
        <translation>Sequenzparallelität einschalten</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Turn sequence parallelism off</source>
        <translation>Sequenzparallelität ausschalten</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Set CP to %1</source>
        <translation>CP auf %1 setzen</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Set EP to %1</source>
        <translation>EP auf %1 setzen</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Set FlashAttention to %1</source>
        <translation>FlashAttention auf %1 setzen</translation>
    </message>
</context>
<context>
    <name>tessera::planner</name>
    <message>
        <location filename="../backend/planner/auto_plan.cpp" line="+30"/>
        <source>DP %1 × TP %2 × PP %3, %4 micro-batches</source>
        <translation>DP %1 × TP %2 × PP %3, %4 Micro-Batches</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>, CP %1</source>
        <translation>, CP %1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>, EP %1</source>
        <translation>, EP %1</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>, interleaved 1F1B × %1 chunks</source>
        <translation>, verschränktes 1F1B × %1 Teile</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>, %1 recompute</source>
        <translation>, Neuberechnung %1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>, sequence parallel</source>
        <translation>, sequenzparallel</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>compute %1 vs %2</source>
        <translation>Rechnen %1 statt %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>TP all-reduce %1 vs %2</source>
        <translation>TP-All-Reduce %1 statt %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>EP all-to-all %1 vs %2</source>
        <translation>EP-All-to-All %1 statt %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>CP ring exchange %1 vs %2</source>
        <translation>CP-Ringaustausch %1 statt %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>pipeline send/recv %1 vs %2</source>
        <translation>Pipeline-Senden/Empfangen %1 statt %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>pipeline bubble %1 vs %2</source>
        <translation>Pipeline-Blase %1 statt %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>DP all-reduce exposed %1 vs %2</source>
        <translation>nicht überlapptes DP-All-Reduce %1 statt %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>optimizer step %1 vs %2</source>
        <translation>Optimiererschritt %1 statt %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>loss all-reduce %1 vs %2</source>
        <translation>Loss-All-Reduce %1 statt %2</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>step %1 vs %2</source>
        <translation>Schritt %1 statt %2</translation>
    </message>
    <message>
        <location line="+145"/>
        <source>fastest that fits: %1; %2 per step, bubble %3 %, MFU %4 %</source>
        <translation>schnellstes, das passt: %1; %2 pro Schritt, Blase %3 %, MFU %4 %</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>cheapest within the deadline: %1; %2 per step, bubble %3 %, MFU %4 %</source>
        <translation>günstigstes innerhalb der Frist: %1; %2 pro Schritt, Blase %3 %, MFU %4 %</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>#%1 %2: ties with #1</source>
        <translation>#%1 %2: gleichauf mit #1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>#%1 %2: +%3 % step time: %4</source>
        <translation>#%1 %2: +%3 % Schrittzeit: %4</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>#%1 %2: +%3 % cost: %4</source>
        <translation>#%1 %2: +%3 % Kosten: %4</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>; %1 devices vs %2</source>
        <translation>; %1 Geräte statt %2</translation>
    </message>
    <message>
        <location filename="../backend/planner/estimate.cpp" line="+30"/>
        <source>layer %1: width %2 (heads or MLP width) is not divisible by TP %3; choose a TP that divides it</source>
        <translation>Schicht %1: Breite %2 (Köpfe oder MLP-Breite) ist nicht durch TP %3 teilbar; ein TP wählen, das sie teilt</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>global batch %1 is not divisible by data parallel %2</source>
        <translation>globaler Batch %1 ist nicht durch Datenparallelität %2 teilbar</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>micro-batches %1 do not divide the %2 samples per data-parallel replica</source>
        <translation>%1 Micro-Batches teilen die %2 Samples pro datenparalleler Replik nicht</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>ZeRO stage %1 is not 0-3</source>
        <translation>ZeRO-Stufe %1 ist nicht 0–3</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>tessera-train runs ZeRO 0/1 without recompute or sequence parallelism; turn those off to launch this built-in model</source>
        <translation>tessera-train fährt ZeRO 0/1 ohne Neuberechnung und Sequenzparallelität; diese ausschalten, um dieses eingebaute Modell zu starten</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>data/tensor/context/expert parallel degrees must be at least 1</source>
        <translation>Daten-/Tensor-/Kontext-/Expertenparallelgrade müssen mindestens 1 sein</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>tessera-train has no experts and no context parallelism; set EP and CP to 1 to launch this built-in model</source>
        <translation>tessera-train hat keine Experten und keine Kontextparallelität; EP und CP auf 1 setzen, um dieses eingebaute Modell zu starten</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>expert parallel %1 needs a mixture-of-experts model; this one has no routed experts: set EP to 1</source>
        <translation>Expertenparallelität %1 braucht ein Mixture-of-Experts-Modell; dieses hat keine gerouteten Experten: EP auf 1 setzen</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>expert parallel %1 does not divide the %2 routed experts of each layer</source>
        <translation>Expertenparallelität %1 teilt die %2 gerouteten Experten jeder Schicht nicht</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>expert parallel %1 does not divide DP %2 × CP %3: its groups are made of those ranks</source>
        <translation>Expertenparallelität %1 teilt DP %2 × CP %3 nicht: ihre Gruppen bestehen aus diesen Ranks</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>context parallel %1 needs a sequence length divisible by 2 × %1 (the load-balanced causal split); %2 tokens is not</source>
        <translation>Kontextparallelität %1 braucht eine durch 2 × %1 teilbare Sequenzlänge (die lastausgeglichene kausale Aufteilung); %2 Tokens sind es nicht</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>virtual stages need the interleaved 1F1B schedule</source>
        <translation>virtuelle Stufen brauchen den verschränkten 1F1B-Ablauf</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 model chunks do not make %2 virtual stages on each of at least 2 pipeline ranks; use a multiple of %2 chunks</source>
        <translation>%1 Modellteile ergeben nicht %2 virtuelle Stufen auf jedem von mindestens 2 Pipeline-Ranks; ein Vielfaches von %2 Teilen verwenden</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>the interleaved schedule needs micro-batches (%1) that are a multiple of the %2 pipeline ranks</source>
        <translation>der verschränkte Ablauf braucht Micro-Batches (%1), die ein Vielfaches der %2 Pipeline-Ranks sind</translation>
    </message>
    <message>
        <location line="+247"/>
        <source>the layout needs %1 ranks (DP %2 × PP %3 × CP %4 × TP %5) but the cluster has %6 devices</source>
        <translation>das Layout braucht %1 Ranks (DP %2 × PP %3 × CP %4 × TP %5), der Cluster hat aber %6 Geräte</translation>
    </message>
    <message>
        <location filename="../backend/planner/estimate_memory.cpp" line="+137"/>
        <source>over memory: stage %1 on %2 device %3 (%4) needs %5 of %6 (%7 over); use ZeRO, more TP/PP, recompute or fewer micro-batches in flight</source>
        <translation>Speicher überschritten: Stufe %1 auf %2 Gerät %3 (%4) braucht %5 von %6 (%7 zu viel); ZeRO, mehr TP/PP, Neuberechnung oder weniger gleichzeitige Micro-Batches nutzen</translation>
    </message>
    <message>
        <location filename="../backend/planner/layer_cost.cpp" line="+329"/>
        <source>stage %1 is empty (layers %2..%3); give it at least one layer</source>
        <translation>Stufe %1 ist leer (Schichten %2..%3); ihr mindestens eine Schicht geben</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>stage %1 ends outside the model&apos;s %2 layers (0..%3)</source>
        <translation>Stufe %1 endet außerhalb der %2 Schichten des Modells (0..%3)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>layer %1 is in no stage; extend stage %2 or %3 to cover it</source>
        <translation>Schicht %1 ist in keiner Stufe; Stufe %2 oder %3 auf sie ausdehnen</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>layer %1 is in two stages (%2 and %3)</source>
        <translation>Schicht %1 ist in zwei Stufen (%2 und %3)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>layers %1..%2 are in no stage; extend the last stage to the end of the model</source>
        <translation>Schichten %1..%2 sind in keiner Stufe; die letzte Stufe bis zum Ende des Modells ausdehnen</translation>
    </message>
    <message>
        <location filename="../backend/planner/device_catalog.cpp" line="+109"/>
        <source>CPU rank slot</source>
        <translation>CPU-Rank-Slot</translation>
    </message>
</context>
</TS>
