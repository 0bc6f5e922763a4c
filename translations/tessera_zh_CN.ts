<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>BackendClient</name>
    <message>
        <location filename="../backend/service/backendclient.cpp" line="+41"/>
        <source>the server at %1 refused: %2</source>
        <translation>%1 处的服务器拒绝了:%2</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>the backend at %1 did not answer: %2</source>
        <translation>位于 %1 的后端没有响应：%2</translation>
    </message>
</context>
<context>
    <name>DataFolderLock</name>
    <message>
        <location line="+171"/>
        <source>%1 owns the data folder but did not hand it over (%2): stop it (systemctl --user stop tessera-backend, or kill %3) and start again</source>
        <translation>%1 占用数据文件夹但没有移交（%2）：请停止它（systemctl --user stop tessera-backend，或 kill %3）后重新启动</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>%1 agreed to hand the data folder over but still holds it after %2 s: stop it (systemctl --user stop tessera-backend, or kill %3) and start again</source>
        <translation>%1 同意移交数据文件夹，但 %2 秒后仍占用它：请停止它（systemctl --user stop tessera-backend，或 kill %3）后重新启动</translation>
    </message>
    <message>
        <location filename="../backend/service/datafolderlock.cpp" line="+24"/>
        <source>it is a symbolic link (remove it; Tessera makes its own)</source>
        <translation>它是一个符号链接（请删除它；Tessera 会自己创建）</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>cannot create the data folder %1 (is its parent writable, and a folder?)</source>
        <translation>无法创建数据文件夹 %1（其上级是否可写且是文件夹？）</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>the tessera-server at %1</source>
        <translation>%1 处的 tessera-server</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>tessera-ctl serve</source>
        <translation>tessera-ctl serve</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the Tessera window</source>
        <translation>Tessera 窗口</translation>
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
        <translation>另一个进程</translation>
    </message>
    <message>
        <location line="-53"/>
        <source>%1 (pid %2)</source>
        <translation>%1（PID %2）</translation>
    </message>
    <message>
        <location line="+32"/>
        <location line="+64"/>
        <source>cannot open the lock file %1: %2</source>
        <translation>无法打开锁文件 %1：%2</translation>
    </message>
    <message>
        <location line="-53"/>
        <source>cannot lock %1: %2</source>
        <translation>无法锁定 %1：%2</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>the data folder %1 is owned by %2</source>
        <translation>数据文件夹 %1 被 %2 占用</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>cannot write the lock file %1: %2</source>
        <translation>无法写入锁文件 %1：%2</translation>
    </message>
    <message>
        <location line="+44"/>
        <source>%1 serves %2 already</source>
        <translation>%1 已在服务 %2</translation>
    </message>
</context>
<context>
    <name>DeviceTelemetry</name>
    <message>
        <location filename="../app/monitor/devicetelemetry.cpp" line="+79"/>
        <source>rank %1: stage %2</source>
        <translation>rank %1：阶段 %2</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>, dp %1, tp %2</source>
        <translation>，DP %1，TP %2</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>… and %1 more ranks</source>
        <translation>…… 以及另外 %1 个 rank</translation>
    </message>
</context>
<context>
    <name>MeasuredTimeline</name>
    <message>
        <location filename="../app/monitor/measuredtimeline.cpp" line="+47"/>
        <source>a record of rank %1 names no stage (ignored)</source>
        <translation>rank %1 的一条记录未注明阶段（已忽略）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>a record of rank %1 for stage %2, which the layout does not have (ignored)</source>
        <translation>rank %1 的一条记录属于阶段 %2，但布局中没有该阶段（已忽略）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>the record of stage %1 has no anchor_us (ignored)</source>
        <translation>阶段 %1 的记录缺少 anchor_us（已忽略）</translation>
    </message>
    <message>
        <location line="+69"/>
        <source>stage %1: the record has no micro_batches</source>
        <translation>阶段 %1：记录缺少 micro_batches</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>stage %1: %2 of %3 forward/backward ops missing or invalid</source>
        <translation>阶段 %1：%3 个前向/反向操作中有 %2 个缺失或无效</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>stage %1 sent no timeline for step %2</source>
        <translation>阶段 %1 未发送第 %2 步的时间线</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>step %1 is incomplete so far (%2 of %3 stages)</source>
        <translation>第 %1 步尚不完整（已收到 %3 个阶段中的 %2 个）</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <location filename="../backend/service/backendserver_leases.cpp" line="+117"/>
        <source>budgets are US dollars from 0 (no cap) to 1,000,000</source>
        <translation>预算以美元计,从 0(无上限)到 1,000,000</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the node cap is 1 to 1,024, not %1</source>
        <translation>节点上限为 1 到 1,024,而不是 %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the idle timeout is 60 s to 24 h, not %1 s</source>
        <translation>空闲超时为 60 秒到 24 小时,而不是 %1 秒</translation>
    </message>
</context>
<context>
    <name>ServerAddress</name>
    <message>
        <location filename="../backend/client/serverconnection.cpp" line="+19"/>
        <source>this machine</source>
        <translation>本机</translation>
    </message>
</context>
<context>
    <name>SpecSummary</name>
    <message>
        <location filename="../app/jobs/specsummary.cpp" line="+34"/>
        <source>Command: %1</source>
        <translation>命令：%1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 blocks, width %2, %3 heads, %4×%4 patches</source>
        <translation>%1 个块，宽度 %2，%3 个注意力头，%4×%4 图块</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 blocks, width %2, %3 heads, context %4</source>
        <translation>%1 个块，宽度 %2，%3 个注意力头，上下文 %4</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Model: %1 %2</source>
        <translation>模型：%1 %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source> — %1 layers, %2 parameters</source>
        <translation> — %1 层，%2 个参数</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Optimizer: adamw, learning rate %1, weight decay %2</source>
        <translation>优化器：adamw，学习率 %1，权重衰减 %2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Optimizer: %1, learning rate %2, momentum %3, weight decay %4</source>
        <translation>优化器：%1，学习率 %2，动量 %3，权重衰减 %4</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>, cosine schedule</source>
        <translation>，余弦学习率调度</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>, %1 warm-up steps</source>
        <translation>，预热 %1 步</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>, gradient norm clipped to %1</source>
        <translation>，梯度范数裁剪至 %1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Layout: data parallel %1, tensor parallel %2, %3 pipeline stage(s)</source>
        <translation>布局：数据并行 %1，张量并行 %2，%3 个流水线阶段</translation>
    </message>
    <message>
        <location line="+15"/>
        <source> (layers %1; %2 micro-batches, %3)</source>
        <translation>（层 %1；%2 个微批次，%3）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>, ZeRO-1</source>
        <translation>，ZeRO-1</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Name: %1</source>
        <translation>名称：%1</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>(unnamed)</source>
        <translation>（未命名）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Dataset: %1 (%2)</source>
        <translation>数据集：%1（%2）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 epoch(s)</source>
        <translation>%1 轮</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>, at most %1 steps</source>
        <translation>，最多 %1 步</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Training: %1, global batch %2</source>
        <translation>训练：%1，全局批大小 %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Seed %1, metrics every %2 step(s)</source>
        <translation>随机种子 %1，每 %2 步记录一次指标</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>World size: %1 rank(s)</source>
        <translation>总进程数：%1 个 rank</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <location filename="../app/main.cpp" line="+99"/>
        <source>%1. Close it first, or start this one with another data folder (--data-dir).</source>
        <translation>%1。请先关闭它，或用另一个数据文件夹启动本实例（--data-dir）。</translation>
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
        <translation>ssh-&lt;地址&gt;</translation>
    </message>
    <message>
        <location line="-117"/>
        <source>gpu-box.lan or me@10.0.0.5</source>
        <translation>gpu-box.lan 或 me@10.0.0.5</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>from Address, else your local user name</source>
        <translation>取自地址，否则为你的本地用户名</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>optional: ssh-agent and ~/.ssh&apos;s keys</source>
        <translation>可选：使用 ssh-agent 和 ~/.ssh 中的密钥</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>~/.ssh/known_hosts</source>
        <translation>~/.ssh/known_hosts</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>e.g. NVIDIA H100 80GB HBM3</source>
        <translation>例如 NVIDIA H100 80GB HBM3</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Test connection</source>
        <translation>测试连接(&amp;T)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Accept host key</source>
        <translation>接受主机密钥(&amp;A)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Re&amp;ject</source>
        <translation>拒绝(&amp;J)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Add SSH host</source>
        <translation>添加 SSH 主机</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The host keys Tessera trusts for this machine. By default Tessera&apos;s own file beside the hosts file, so ~/.ssh stays as it is; name ~/.ssh/known_hosts to use the keys you trust already.</source>
        <translation>Tessera 为这台机器信任的主机密钥。默认使用主机文件旁边 Tessera 自己的文件，~/.ssh 保持不变；填写 ~/.ssh/known_hosts 即可使用你已经信任的密钥。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>none (CPU only)</source>
        <translation>无（仅 CPU）</translation>
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
        <translation>未知</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>/h</source>
        <translation>/小时</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>free (your own machine)</source>
        <translation>免费（你自己的机器）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Browse…</source>
        <translation>浏览(&amp;B)…</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&amp;Name:</source>
        <translation>名称(&amp;N)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A&amp;ddress:</source>
        <translation>地址(&amp;D)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Port:</source>
        <translation>端口(&amp;P)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>SSH &amp;user:</source>
        <translation>SSH 用户(&amp;U)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Identity file:</source>
        <translation>身份密钥文件(&amp;I)：</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Known hosts file:</source>
        <translation>已知主机文件(&amp;K)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;GPUs:</source>
        <translation>GPU 数量(&amp;G)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>GPU m&amp;odel:</source>
        <translation>GPU 型号(&amp;O)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Memory per GPU:</source>
        <translation>每块 GPU 显存(&amp;M)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>CPU &amp;cores:</source>
        <translation>CPU 核数(&amp;C)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>P&amp;rice per hour:</source>
        <translation>每小时价格(&amp;R)：</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Not tested yet. The test shows the machine&apos;s host key for you to check, then logs in.</source>
        <translation>尚未测试。测试会先显示这台机器的主机密钥供你核对，然后登录。</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Connection</source>
        <translation>连接</translation>
    </message>
    <message>
        <location line="+122"/>
        <source>Settings changed: test the connection again.</source>
        <translation>设置已更改：请重新测试连接。</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>%1 is not in %2 yet. Its host key fingerprints:</source>
        <translation>%1 尚未记录在 %2 中。它的主机密钥指纹：</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Host key already trusted in %1:</source>
        <translation>主机密钥已在 %1 中受信任：</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>WARNING: these keys are not the ones %1 holds for this host:</source>
        <translation>警告：这些密钥与 %1 中为此主机记录的密钥不一致：</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Accept only if one matches what the machine itself shows
(run there: ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub).</source>
        <translation>仅当其中一个与该机器本身显示的指纹一致时才接受
（在那台机器上运行：ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub）。</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Accepted and added to %1:</source>
        <translation>已接受并添加到 %1：</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Connected: %1.</source>
        <translation>已连接：%1。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Renting needs Linux and Open MPI there (Debian package openmpi-bin).</source>
        <translation>租用需要该机器运行 Linux 并安装 Open MPI（Debian 软件包 openmpi-bin）。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Private key for %1</source>
        <translation>%1 的私钥</translation>
    </message>
</context>
<context>
    <name>tessera::AlertWatcher</name>
    <message>
        <location filename="../app/monitor/alertwatcher.cpp" line="+97"/>
        <source>the loss is %1 at step %2: training diverged; lower the learning rate or clip gradients (training.gradClip)</source>
        <translation>第 %2 步的损失为 %1：训练已发散；请降低学习率或裁剪梯度（training.gradClip）</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>the loss is diverging: smoothed %1 at step %2, %3× its lowest %4 at step %5</source>
        <translation>损失正在发散：第 %2 步的平滑值为 %1，是第 %5 步最低值 %4 的 %3 倍</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>straggler: rank %1 (stage %2) computes %3 ms per step, %4× the median %5 ms of the other %6 rank(s) of its stage, %7 reports in a row; they wait for it</source>
        <translation>慢节点：rank %1（阶段 %2）每步计算 %3 ms，是同阶段其余 %6 个 rank 中位数 %5 ms 的 %4 倍，已连续 %7 次报告；其他 rank 在等待它</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>no step for %1 s (the last, step %2, came at %3 UTC; the limit is %4 s): look at the log and the workers</source>
        <translation>已有 %1 秒没有新的步（最后一步为第 %2 步，于 UTC %3 到达；上限为 %4 秒）：请查看日志和工作节点</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>no step for %1 s since the job started (the limit is %2 s): look at the log and the workers</source>
        <translation>作业启动后已有 %1 秒没有任何步（上限为 %2 秒）：请查看日志和工作节点</translation>
    </message>
</context>
<context>
    <name>tessera::Autopilot</name>
    <message>
        <location filename="../app/autopilot.cpp" line="+33"/>
        <source>gave up after %1 s (--timeout)</source>
        <translation>%1 秒后放弃（--timeout）</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>job %1 ended (%2) before %3 loss points arrived: %4</source>
        <translation>作业 %1 在收到 %3 个损失点之前结束（%2）：%4</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>rent failed: %1</source>
        <translation>租用失败：%1</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>--launch: no valid spec selected (%1)</source>
        <translation>--launch：未选择有效的作业规格（%1）</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>The job needs %1 ranks but the cluster has 1 slot: rent more workers.</source>
        <translation>该作业需要 %1 个 rank，但集群只有 1 个槽位：请租用更多工作节点。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The job needs %1 ranks but the cluster has %2 slots: rent more workers.</source>
        <translation>该作业需要 %1 个 rank，但集群只有 %2 个槽位：请租用更多工作节点。</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>cannot write the screenshot &apos;%1&apos;: check the folder exists and is writable</source>
        <translation>无法写入截图“%1”：请检查文件夹是否存在且可写</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Autopilot stopped: %1</source>
        <translation>自动驾驶已停止：%1</translation>
    </message>
</context>
<context>
    <name>tessera::AutoscaleSettingsDialog</name>
    <message>
        <location filename="../app/settings/autoscalesettings.cpp" line="+28"/>
        <source>Auto-provision</source>
        <translation>自动供给</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Rent the machines a launched job is missing, release them when idle</source>
        <translation>为已启动的作业租用所缺的机器，空闲时释放(&amp;R)</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>no cap</source>
        <translation>无上限</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>/h</source>
        <translation>/小时</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Bounds every rent, by hand in the Rent dialog and tessera-ctl too, not only auto-provision&apos;s</source>
        <translation>限制每一次租用，包括在租用对话框和 tessera-ctl 中手动租用的，而不仅是自动配置的</translation>
    </message>
    <message>
        <location line="+6"/>
        <source> min</source>
        <translation> 分钟</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Budget per &amp;hour (all leases):</source>
        <translation>每小时预算（所有租约）(&amp;H)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Total budget (spent so far + the new nodes&apos; first hour):</source>
        <translation>总预算（已花费 + 新节点的第一小时）(&amp;T)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Node cap:</source>
        <translation>节点上限(&amp;N)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Release after &amp;idle:</source>
        <translation>空闲多久后释放(&amp;I)：</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Every decision appears in the log.</source>
        <translation>每项决定都会记录在日志中。</translation>
    </message>
    <message>
        <location line="+60"/>
        <source>Not changed: %1</source>
        <translation>未更改:%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>auto-provision settings not changed: %1</source>
        <translation>自动扩缩设置未更改:%1</translation>
    </message>
</context>
<context>
    <name>tessera::Autoscaler</name>
    <message>
        <location filename="../backend/autoscale/autoscaler.cpp" line="+68"/>
        <source>adopted %1 (%2, %3): rented by the autoscaler before this start; released when idle past the idle timeout</source>
        <translation>已接管 %1（%2，%3）：本次启动前由自动扩缩器租用；空闲超过空闲超时后释放</translation>
    </message>
    <message>
        <location line="+208"/>
        <source>%1 needs %2 rank(s) on %3: submitted as %4 on idle ready node(s) %5</source>
        <translation>%1 需要在 %3 上运行 %2 个 rank：已作为 %4 提交到空闲的就绪节点 %5</translation>
    </message>
    <message>
        <location line="+13"/>
        <location line="+50"/>
        <source>refused: %1</source>
        <translation>已拒绝：%1</translation>
    </message>
    <message>
        <location line="-30"/>
        <source>renting %1 for %2 failed: %3</source>
        <translation>为 %2 租用 %1 失败：%3</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>auto-provision is off (Cluster → Auto-provision… rents replacements)</source>
        <translation>自动租用已关闭（集群 → 自动租用… 会租用替换机器）</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>%1 lost a worker: renting %2 node(s) for its %3 rank(s) on %4: %5</source>
        <translation>%1 失去了一个 worker：为其 %3 个 rank 在 %4 上租用 %2 个节点：%5</translation>
    </message>
    <message>
        <location line="+17"/>
        <source> (memory not checked: %1)</source>
        <translation>（未检查内存：%1）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 needs %2 rank(s) on %3%4, idle ready nodes have %5 such slot(s): renting %6 node(s) for the missing %7: %8</source>
        <translation>%1 需要在 %3%4 上运行 %2 个 rank，空闲就绪节点只有 %5 个此类槽位：为所缺的 %7 租用 %6 个节点：%8</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>%1 is ready: %2 (%3 more to wait for)</source>
        <translation>%1 已就绪：%2（还需等待 %3 个）</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1 for %2 failed: %3</source>
        <translation>为 %2 准备的 %1 失败：%3</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>%1 could not be submitted: %2</source>
        <translation>%1 无法提交：%2</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>every node is ready: %1 submitted as %2 on %3</source>
        <translation>所有节点均已就绪：%1 已作为 %2 提交到 %3</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>releasing %1 (%2): %3</source>
        <translation>正在释放 %1（%2）：%3</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>budget: %1</source>
        <translation>预算：%1</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1 stopped waiting: the budget is reached</source>
        <translation>%1 不再等待：已达到预算</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>its job stopped waiting (budget reached)</source>
        <translation>其作业不再等待（已达到预算）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>idle while the budget is reached</source>
        <translation>已达到预算时处于空闲</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>idle for %1 s, timeout %2 s</source>
        <translation>已空闲 %1 秒，超时 %2 秒</translation>
    </message>
    <message>
        <location line="-63"/>
        <source>release of %1 failed: %2</source>
        <translation>释放 %1 失败：%2</translation>
    </message>
</context>
<context>
    <name>tessera::BackendServer</name>
    <message>
        <location filename="../backend/service/backendserver.cpp" line="+134"/>
        <source>the control socket %1 is longer than the 107 bytes a Unix socket path may have: use a shorter data folder (TESSERA_DATA_DIR)</source>
        <translation>控制套接字 %1 超过 Unix 套接字路径允许的 107 字节：请使用更短的数据文件夹（TESSERA_DATA_DIR）</translation>
    </message>
    <message>
        <location line="+46"/>
        <source>cannot listen on the control socket %1 (is its folder writable?)</source>
        <translation>无法在控制套接字 %1 上监听（其文件夹可写吗？）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>cannot listen on the control socket %1 and on %2 (is the folder writable, and the address this machine&apos;s and its port free?)</source>
        <translation>无法在控制套接字 %1 和 %2 上监听(文件夹是否可写?该地址是否属于本机且端口空闲?)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>cannot listen on %1: is the address this machine&apos;s and the port free?</source>
        <translation>无法在 %1 上监听:该地址是否属于本机且端口空闲?</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>the backend stopped following the job (it was closed or handed the data folder over); the job goes on</source>
        <translation>后端已停止跟踪该作业（它已关闭或移交了数据文件夹）；作业继续运行</translation>
    </message>
    <message>
        <location line="+9"/>
        <location line="+4"/>
        <location line="+2"/>
        <source>the backend stopped</source>
        <translation>后端已停止</translation>
    </message>
    <message>
        <location line="+43"/>
        <source>the data folder %1 is in use by %2: close it first (or use another data folder, TESSERA_DATA_DIR)</source>
        <translation>数据文件夹 %1 正被 %2 使用：请先关闭它（或使用另一个数据文件夹，TESSERA_DATA_DIR）</translation>
    </message>
    <message>
        <location filename="../backend/service/backendserver_jobs.cpp" line="+41"/>
        <source>%1, queued for the autoscaler</source>
        <translation>%1,排队等待自动扩缩</translation>
    </message>
    <message>
        <location line="+9"/>
        <location line="+52"/>
        <source>job %1 is not followed by this backend (`tessera-ctl status` lists the jobs)</source>
        <translation>此后端未跟踪作业 %1（`tessera-ctl status` 列出作业）</translation>
    </message>
    <message>
        <location line="-46"/>
        <source>job %1 %2 already</source>
        <translation>作业 %1 已经%2</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>job %1 was started by %2: only %2 or an admin (server.json &quot;admins&quot;) may cancel it</source>
        <translation>作业 %1 由 %2 启动:只有 %2 或管理员(server.json 中的 &quot;admins&quot;)可以取消它</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>as an admin; started by %1</source>
        <translation>以管理员身份;由 %1 启动</translation>
    </message>
    <message>
        <location line="+55"/>
        <source>not followed by this backend now (its last recorded state)</source>
        <translation>此后端当前未跟踪它(其最后记录的状态)</translation>
    </message>
    <message>
        <location filename="../backend/service/backendserver_leases.cpp" line="-67"/>
        <source>no such provider</source>
        <translation>没有此提供方</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>no provider &apos;%1&apos; (ListOffers names them)</source>
        <translation>没有提供方 &apos;%1&apos;(ListOffers 会列出它们)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>rent at most 64 nodes at once, not %1</source>
        <translation>一次最多租用 64 个节点,而不是 %1</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 (after %2 of %3)</source>
        <translation>%1(%3 个中的第 %2 个之后)</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>lease %1 was rented by %2: only %2 or an admin (server.json &quot;admins&quot;) may release it</source>
        <translation>租约 %1 由 %2 租用:只有 %2 或管理员(server.json 中的 &quot;admins&quot;)可以释放它</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>as an admin; rented by %1</source>
        <translation>以管理员身份;由 %1 租用</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>no lease %1 (WatchCluster lists them)</source>
        <translation>没有租约 %1(WatchCluster 会列出它们)</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>%1, $%2/h, $%3 in total, %4 nodes, idle %5 s</source>
        <translation>%1,$%2/小时,总计 $%3,%4 个节点,空闲 %5 秒</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>the auto-provision policy is the cluster&apos;s: only an admin (server.json &quot;admins&quot;) may change it</source>
        <translation>自动扩缩策略属于整个集群:只有管理员(server.json 中的 &quot;admins&quot;)可以更改</translation>
    </message>
</context>
<context>
    <name>tessera::BackendSession</name>
    <message>
        <location filename="../backend/service/backendsession.cpp" line="+132"/>
        <source>tessera quit and stopped it</source>
        <translation>Tessera 退出并停止了它</translation>
    </message>
</context>
<context>
    <name>tessera::ChartCrosshair</name>
    <message>
        <location filename="../app/monitor/chartcrosshair.cpp" line="+54"/>
        <source>step %1</source>
        <translation>第 %1 步</translation>
    </message>
</context>
<context>
    <name>tessera::ChartExport</name>
    <message>
        <location filename="../app/monitor/chartexport.cpp" line="+32"/>
        <source>Export chart</source>
        <translation>导出图表</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Export chart data</source>
        <translation>导出图表数据</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>PNG images (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>Export chart as PNG…</source>
        <translation>将图表导出为 PNG…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Export data as CSV…</source>
        <translation>将数据导出为 CSV…</translation>
    </message>
</context>
<context>
    <name>tessera::CheckpointResume</name>
    <message>
        <location filename="../app/jobs/checkpointresume.cpp" line="+50"/>
        <source>its checkpoint folder &apos;%1&apos; is inside the job&apos;s folder on worker %2, which is not on this machine; resume it there with checkpoint.resumeFrom, or run it with an absolute checkpoint.dir</source>
        <translation>它的检查点文件夹“%1”位于工作节点 %2 上的作业文件夹中，而该节点不在本机；请在那里用 checkpoint.resumeFrom 续训，或使用绝对路径的 checkpoint.dir 运行</translation>
    </message>
    <message>
        <location line="+51"/>
        <source>its checkpoint is split over the workers&apos; own folders and %1 is not on this machine; run the job with checkpoint.dir set to a folder every worker shares to resume it</source>
        <translation>它的检查点分散在各工作节点自己的文件夹中，而 %1 不在本机上；要续训，请把 checkpoint.dir 设为所有工作节点共享的文件夹后再运行该作业</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>the checkpoint file &apos;%1&apos; is missing; was the worker&apos;s folder cleaned?</source>
        <translation>检查点文件“%1”不存在；工作节点的文件夹是否被清理过？</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>cannot create the folder &apos;%1&apos;</source>
        <translation>无法创建文件夹“%1”</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>cannot copy &apos;%1&apos; to &apos;%2&apos;: %3</source>
        <translation>无法将“%1”复制到“%2”：%3</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>cannot rename &apos;%1&apos; to &apos;%2&apos;</source>
        <translation>无法将“%1”重命名为“%2”</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>%1 (resumed from %2)</source>
        <translation>%1（从 %2 续训）</translation>
    </message>
</context>
<context>
    <name>tessera::CloudBar</name>
    <message>
        <location filename="../app/rent/cloudbar.cpp" line="+19"/>
        <source>%1 API &amp;key…</source>
        <translation>%1 API 密钥(&amp;K)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Release &amp;lost instances</source>
        <translation>释放丢失的实例(&amp;L)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Give Tessera the API key of your %1 account (kept in a file only you can read)</source>
        <translation>把您 %1 账户的 API 密钥交给 Tessera（保存在只有您能读取的文件中）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Terminate the instances Tessera launched but no lease holds</source>
        <translation>终止由 Tessera 启动但没有租约持有的实例</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>%1: no API key yet — add one to see its GPUs and prices.</source>
        <translation>%1：尚无 API 密钥——添加一个即可查看其 GPU 和价格。</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+36"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message numerus="yes">
        <location line="-33"/>
        <source>%1: %n instance type(s) listed.</source>
        <translation>
            <numerusform>%1：列出了 %n 种实例类型。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 (%2, %3, %4)</source>
        <translation>%1（%2，%3，%4）</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>Tessera launched %n instance(s) that no lease holds, still billing: %1</source>
        <translation>
            <numerusform>Tessera 启动的 %n 个实例没有租约持有，仍在计费：%1</numerusform>
        </translation>
    </message>
    <message>
        <location line="+11"/>
        <source>%1 API key</source>
        <translation>%1 API 密钥</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>API key (from the console&apos;s API keys page):</source>
        <translation>API 密钥（来自控制台的 API keys 页面）：</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1: storing the key…</source>
        <translation>%1：正在保存密钥…</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1: key stored; listing its offers…</source>
        <translation>%1：密钥已保存；正在列出其报价…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Stored the %1 API key in %2.</source>
        <translation>已将 %1 API 密钥保存到 %2。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Terminating %1…</source>
        <translation>正在终止 %1…</translation>
    </message>
</context>
<context>
    <name>tessera::ClusterPanel</name>
    <message>
        <location filename="../app/cluster/clusterpanel.cpp" line="+24"/>
        <source>&amp;Rent local workers</source>
        <translation>租用本地工作节点(&amp;R)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Re&amp;lease workers</source>
        <translation>释放工作节点(&amp;L)</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>How many tessera-worker daemons to start on this machine</source>
        <translation>要在本机启动多少个 tessera-worker 守护进程</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Ranks each worker runs</source>
        <translation>每个工作节点运行的 rank 数</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Ctrl+R</source>
        <translation>Ctrl+R</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Start local tessera-worker daemons and add them to the cluster</source>
        <translation>启动本地 tessera-worker 守护进程并加入集群</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Ctrl+Shift+R</source>
        <translation>Ctrl+Shift+R</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stop every local worker</source>
        <translation>停止所有本地工作节点</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Workers:</source>
        <translation>工作节点：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Slots per worker:</source>
        <translation>每节点槽位：</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>No workers yet: rent local workers to start.</source>
        <translation>还没有工作节点：先租用本地工作节点。</translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>Rented %n worker(s): %1</source>
        <translation>
            <numerusform>已租用 %n 个工作节点：%1</numerusform>
        </translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Rent failed: %1</source>
        <translation>租用失败：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Local workers released.</source>
        <translation>本地工作节点已释放。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>%1 answers again.</source>
        <translation>%1 又有响应了。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 is unreachable: %2</source>
        <translation>%1 无法访问：%2</translation>
    </message>
    <message numerus="yes">
        <location line="+23"/>
        <source>Starting %n local worker(s)…</source>
        <translation>
            <numerusform>正在启动 %n 个本地工作节点…</numerusform>
        </translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Releasing local workers…</source>
        <translation>正在释放本地工作节点…</translation>
    </message>
</context>
<context>
    <name>tessera::ClusterTableModel</name>
    <message>
        <location filename="../app/cluster/clustertablemodel.cpp" line="+114"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Address</source>
        <translation>地址</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Host</source>
        <translation>主机</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Slots</source>
        <translation>槽位</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Cores</source>
        <translation>核数</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Problem</source>
        <translation>问题</translation>
    </message>
</context>
<context>
    <name>tessera::CostLabel</name>
    <message>
        <location filename="../app/rent/costlabel.cpp" line="+15"/>
        <source>What the rented machines bill: per hour now, and since they were rented</source>
        <translation>已租用机器的费用：当前每小时费用，以及自租用以来的累计费用</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Cluster $%1/h · $%2 so far</source>
        <translation>集群 $%1/小时 · 累计 $%2</translation>
    </message>
    <message>
        <location line="+5"/>
        <source> · budget nearly spent</source>
        <translation> · 预算即将用完</translation>
    </message>
    <message>
        <location line="+2"/>
        <source> · budget reached</source>
        <translation> · 已达到预算</translation>
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
        <translation>GPU</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>CPU slot(s)</source>
        <translation>CPU 槽位</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>slot(s)</source>
        <translation>槽位</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 with ≥ %2 each</source>
        <translation>%1（每个 ≥ %2）</translation>
    </message>
    <message>
        <location line="+47"/>
        <source>%1: CPU only</source>
        <translation>%1：仅 CPU</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1: %2 of RAM for %3 slot(s), %4 per rank needed</source>
        <translation>%1：%3 个槽位共 %2 内存，每个 rank 需要 %4</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1: GPUs (%2), the layout trains on CPUs</source>
        <translation>%1：GPU（%2），而该布局在 CPU 上训练</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1: %2 has %3 per GPU, %4 needed</source>
        <translation>%1：%2 每块 GPU 有 %3，需要 %4</translation>
    </message>
</context>
<context>
    <name>tessera::FollowerLock</name>
    <message>
        <location filename="../backend/history/followerlock.cpp" line="+118"/>
        <source>its launcher, %1 (pid %2), ended before the job did (killed?), and its local cluster with it; noticed at %3</source>
        <translation>其启动者 %1（pid %2）在作业结束前已退出（被终止？），其本地集群也随之结束；发现于 %3</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>not followed since its launcher, %1 (pid %2), ended before the job did (noticed at %3); it may still run on its workers: tessera-ctl attach %4 --workers A,B --token-file F follows it again</source>
        <translation>自其启动者 %1（pid %2）在作业结束前退出后无人跟踪（发现于 %3）；它可能仍在其 worker 上运行：tessera-ctl attach %4 --workers A,B --token-file F 可重新跟踪</translation>
    </message>
</context>
<context>
    <name>tessera::GanttView</name>
    <message>
        <location filename="../app/gantt/ganttview.cpp" line="+123"/>
        <source>weight gradient</source>
        <translation>权重梯度</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>stage %1 · chunk %2 · micro-batch %3 · %4</source>
        <translation>阶段 %1 · 模型块 %2 · 微批次 %3 · %4</translation>
    </message>
    <message>
        <location line="+96"/>
        <source>W = weight gradient</source>
        <translation>W = 权重梯度</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>F3.1 = micro-batch 3 of model chunk 1</source>
        <translation>F3.1 = 模型块 1 的微批次 3</translation>
    </message>
    <message>
        <location line="-185"/>
        <source>No schedule to show: the layout needs a model and valid stages.</source>
        <translation>没有可显示的调度：布局需要一个模型和有效的阶段。</translation>
    </message>
    <message>
        <location line="+83"/>
        <source>backward</source>
        <translation>反向</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>forward</source>
        <translation>前向</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>stage %1 · micro-batch %2 · %3</source>
        <translation>阶段 %1 · 微批次 %2 · %3</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>start %1 · length %2 (relative units)</source>
        <translation>开始 %1 · 长度 %2（相对单位）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>start %1 · duration %2</source>
        <translation>开始 %1 · 时长 %2</translation>
    </message>
    <message>
        <location line="+56"/>
        <source>stage %1</source>
        <translation>阶段 %1</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>0 … %1 (compute only; F = forward, B = backward)</source>
        <translation>0 … %1（仅计算；F = 前向，B = 反向）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>relative time (F = forward, B = backward)</source>
        <translation>相对时间（F = 前向，B = 反向）</translation>
    </message>
</context>
<context>
    <name>tessera::HostKeys</name>
    <message>
        <location filename="../app/rent/hostkeys.cpp" line="+132"/>
        <source>cannot add the host key to the known hosts file %1: %2</source>
        <translation>无法将主机密钥添加到已知主机文件 %1：%2</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>its folder cannot be created</source>
        <translation>无法创建其所在文件夹</translation>
    </message>
</context>
<context>
    <name>tessera::JobController</name>
    <message>
        <location filename="../backend/jobs/jobcontroller.cpp" line="+68"/>
        <source>the drawn layout runs ranks on worker &apos;%1&apos;, which is not a Ready worker of this job: rent it again, or redraw the layout on the live cluster (Designer → Use live cluster)</source>
        <translation>绘制的布局把 rank 放在工作节点“%1”上，但它不是此作业的就绪工作节点：请重新租用它，或在实时集群上重新绘制布局（设计器 → 使用实时集群）</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>the drawn placement names worker &apos;%1&apos; twice: a worker&apos;s ranks must be consecutive</source>
        <translation>绘制的放置方案两次提到工作节点“%1”：一个工作节点上的 rank 必须连续</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>the drawn layout gives worker &apos;%1&apos; %2 ranks but it has %3 usable slots now: redraw the layout on the live cluster</source>
        <translation>绘制的布局给工作节点“%1”分配了 %2 个 rank，但它现在只有 %3 个可用槽位：请在实时集群上重新绘制布局</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>the drawn placement has %1 ranks but the layout needs %2 (DP × PP × TP): redraw the layout</source>
        <translation>绘制的放置方案有 %1 个 rank，但布局需要 %2 个（DP × PP × TP）：请重新绘制布局</translation>
    </message>
    <message>
        <location line="+40"/>
        <source>the job hung: %1; its processes are being stopped on every node</source>
        <translation>作业挂起：%1；正在所有节点上停止其进程</translation>
    </message>
    <message>
        <location line="+49"/>
        <source>the layout trains on GPUs (layout.device cuda) and needs %1 of them, but the ready workers have %2: rent GPU machines (Cluster → Rent machines…), turn on auto-provision, or set layout.device to cpu</source>
        <translation>该布局在 GPU 上训练（layout.device cuda），需要 %1 块，但就绪的工作节点只有 %2 块：请租用 GPU 机器（集群 → 租用机器…）、开启自动供给，或将 layout.device 设为 cpu</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>the job needs %1 ranks but the ready workers have %2 slots: rent more workers or wait until they are ready</source>
        <translation>该作业需要 %1 个 rank，但就绪的工作节点只有 %2 个槽位：请租用更多工作节点，或等待它们就绪</translation>
    </message>
    <message>
        <location line="+69"/>
        <source>cancelled before launch</source>
        <translation>启动前已取消</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>worker %1 left the cluster before the launch; rent workers and submit again</source>
        <translation>工作节点 %1 在启动前离开了集群；请租用工作节点后重新提交</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>worker %1 left the cluster before the launch</source>
        <translation>工作节点 %1 在启动前离开了集群</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>cannot ship model.workdir: %1</source>
        <translation>无法分发 model.workdir：%1</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>launch failed: %1</source>
        <translation>启动失败：%1</translation>
    </message>
    <message>
        <location line="+44"/>
        <source>lost the job: rank 0&apos;s worker %1 stopped answering: %2</source>
        <translation>作业丢失：rank 0 的 worker %1 不再响应：%2</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>@tessera record not charted: %1 — %2%3</source>
        <translation>@tessera 记录未绘入图表：%1 — %2%3</translation>
    </message>
    <message>
        <location line="+66"/>
        <source>worker %1 died or stopped answering (%2); the job failed with it: %3</source>
        <translation>worker %1 已崩溃或不再响应（%2）；作业随之失败：%3</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>cancelled while waiting for a replacement worker</source>
        <translation>在等待替换 worker 时被取消</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>cannot cancel: worker %1 left the cluster</source>
        <translation>无法取消：工作节点 %1 已离开集群</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>cancel failed: %1</source>
        <translation>取消失败：%1</translation>
    </message>
    <message>
        <location line="+52"/>
        <source>worker %1 died (%2) while the job was running</source>
        <translation>作业运行期间工作节点 %1 退出了（%2）</translation>
    </message>
    <message>
        <location filename="../backend/jobs/peercheck.cpp" line="+51"/>
        <source>it left the cluster</source>
        <translation>它已离开集群</translation>
    </message>
    <message>
        <location filename="../backend/jobs/jobreattach.cpp" line="+40"/>
        <source>no job %1 in the history %2: `tessera-ctl jobs` lists them</source>
        <translation>历史记录 %2 中没有作业 %1：`tessera-ctl jobs` 会列出它们</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>(none open)</source>
        <translation>（未打开）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>job %1 is followed already</source>
        <translation>作业 %1 已在跟踪中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>job %1 %2 already%3</source>
        <translation>作业 %1 已经 %2%3</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>job %1 runs rank 0 on worker %2, which is not among the workers given: pass the job&apos;s workers with --workers, in the order of its run</source>
        <translation>作业 %1 的 rank 0 运行在 worker %2 上，而它不在给定的 worker 中：请用 --workers 按其运行时的顺序给出该作业的 worker</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>job %1 cannot be followed: %2</source>
        <translation>无法跟踪作业 %1：%2</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>lost while Tessera was closed: %1</source>
        <translation>在 Tessera 关闭期间丢失：%1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>its stored spec cannot be read (%1)</source>
        <translation>无法读取其保存的规格（%1）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>it had not been launched yet; submit it again</source>
        <translation>它尚未启动；请重新提交</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>the stored spec of its attempt %1 cannot be read</source>
        <translation>无法读取其第 %1 次尝试所存储的规格</translation>
    </message>
    <message>
        <location line="+47"/>
        <source>lost while Tessera was closed: its rank-0 worker %1 is not in the cluster any more (its lease ended or was released); if the job still runs there, stop it on that machine</source>
        <translation>在 Tessera 关闭期间丢失：其 rank 0 的 worker %1 已不在集群中（其租约已结束或已释放）；如果作业仍在那里运行，请在那台机器上停止它</translation>
    </message>
    <message>
        <location filename="../backend/jobs/jobrecovery.cpp" line="+38"/>
        <source>%1; not relaunched: %2</source>
        <translation>%1；未重新启动：%2</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>stopping attempt %1 on its workers before relaunching it</source>
        <translation>正在重新启动前停止其 worker 上的第 %1 次尝试</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>%1; cannot relaunch: %2</source>
        <translation>%1；无法重新启动：%2</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>%1; renting one failed: %2</source>
        <translation>%1；租用替换机器失败：%2</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>attempt %1 ended: %2. Waiting up to %3 s for a worker being rented to replace %4</source>
        <translation>第 %1 次尝试结束：%2。最多等待 %3 秒，等候租用的 worker 替换 %4</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>waiting for a worker to replace %1</source>
        <translation>正在等待替换 %1 的 worker</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>worker %1 stopped answering while the job was running: %2</source>
        <translation>worker %1 在作业运行时停止响应：%2</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>%1; cannot relaunch: no replacement became Ready within %2 s (%3)</source>
        <translation>%1；无法重新启动：%2 秒内没有替换机器就绪（%3）</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>it was being cancelled</source>
        <translation>它正在被取消</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Tessera was closing</source>
        <translation>Tessera 正在关闭</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>all %1 relaunches of recovery.maxRestarts are used</source>
        <translation>recovery.maxRestarts 的全部 %1 次重新启动均已用完</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>recovery.onNodeLoss is &quot;fail&quot;</source>
        <translation>recovery.onNodeLoss 为 &quot;fail&quot;</translation>
    </message>
    <message numerus="yes">
        <location line="+51"/>
        <source>no idle Ready worker can take the %n rank(s) of worker %1: rent one (Cluster → Rent machines…, or turn on auto-provision) or give the job spare workers</source>
        <translation>
            <numerusform>没有空闲的就绪 worker 能接管 worker %1 的 %n 个 rank：租用一台（集群 → 租用机器…，或打开自动租用），或为作业提供备用 worker</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+42"/>
        <source>cannot shrink either: the surviving workers have %n slot(s), one data-parallel replica needs %1</source>
        <translation>
            <numerusform>也无法缩减：剩余的 worker 共有 %n 个槽位，一个数据并行副本需要 %1 个</numerusform>
        </translation>
    </message>
    <message>
        <location line="+73"/>
        <source>from its checkpoint of step %1</source>
        <translation>从其第 %1 步的检查点</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>with TESSERA_RESUME_FROM=%1</source>
        <translation>使用 TESSERA_RESUME_FROM=%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>from step 0 (no checkpoint yet)</source>
        <translation>从第 0 步（尚无检查点）</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>attempt %1 ended: %2. Relaunching it as attempt %3 of %4 on %5 %6 (%n step(s) computed again)</source>
        <translation>
            <numerusform>第 %1 次尝试结束：%2。作为第 %3 次尝试（共 %4 次）在 %5 上重新启动，%6（重新计算 %n 步）</numerusform>
        </translation>
    </message>
    <message>
        <location line="+7"/>
        <source>; no idle worker replaces the lost one, so it goes on with data parallel %1 instead of %2 (recovery.onNodeLoss shrink; the global batch stays)</source>
        <translation>；没有空闲 worker 能替换失去的那台，因此以数据并行度 %1（原为 %2）继续（recovery.onNodeLoss shrink；全局批大小不变）</translation>
    </message>
</context>
<context>
    <name>tessera::JobPanel</name>
    <message>
        <location filename="../app/jobs/jobpanel.cpp" line="+28"/>
        <source>&amp;Launch</source>
        <translation>启动(&amp;L)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Cancel</source>
        <translation>取消(&amp;C)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Res&amp;ume</source>
        <translation>续训(&amp;U)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Launch job</source>
        <translation>启动作业(&amp;L)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Cancel job</source>
        <translation>取消作业(&amp;C)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Open spec…</source>
        <translation>打开作业规格(&amp;O)…</translation>
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
        <translation>正在从检查点续训 %1。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Spec:</source>
        <translation>作业规格：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Job:</source>
        <translation>作业：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Progress:</source>
        <translation>进度：</translation>
    </message>
    <message>
        <location line="+27"/>
        <location line="+94"/>
        <source>none launched</source>
        <translation>尚未启动</translation>
    </message>
    <message>
        <location line="-92"/>
        <source>No example specs found in &apos;%1&apos;. Open a spec file (Ctrl+O) or set TESSERA_EXAMPLES_DIR.</source>
        <translation>在“%1”中找不到示例作业规格。请打开一个规格文件（Ctrl+O），或设置 TESSERA_EXAMPLES_DIR。</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Spec file &apos;%1&apos; does not exist; check the path.</source>
        <translation>作业规格文件“%1”不存在；请检查路径。</translation>
    </message>
    <message>
        <location line="+43"/>
        <source>No valid spec selected: pick one from the list or open a file.</source>
        <translation>未选择有效的作业规格：请从列表中选择，或打开一个文件。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>A launch waits for the server&apos;s answer; launch again once it came.</source>
        <translation>一次启动正在等待服务器的答复;答复到达后再启动。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>submitting %1…</source>
        <translation>正在提交 %1…</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>waiting for machines (%1)</source>
        <translation>等待机器（%1）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 waits for the machines auto-provision rents for it; see the log.</source>
        <translation>%1 正在等待自动供给为其租用的机器；请查看日志。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Launch failed: %1</source>
        <translation>启动失败：%1</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Submitted %1 as job %2.</source>
        <translation>已将 %1 提交为作业 %2。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Cancelling job %1…</source>
        <translation>正在取消作业 %1…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Cannot cancel %1: %2</source>
        <translation>无法取消 %1:%2</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Open job spec</source>
        <translation>打开作业规格</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Job specs (*.json)</source>
        <translation>作业规格 (*.json)</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Cannot use this spec: %1</source>
        <translation>无法使用此作业规格：%1</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Job %1 failed: %2</source>
        <translation>作业 %1 失败：%2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Job %1 %2.</source>
        <translation>作业 %1 %2。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>step %1</source>
        <translation>第 %1 步</translation>
    </message>
    <message>
        <location line="+3"/>
        <source> · epoch %1</source>
        <translation> · 第 %1 轮</translation>
    </message>
    <message>
        <location line="+3"/>
        <source> · loss %1</source>
        <translation> · 损失 %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source> · %1 samples/s</source>
        <translation> · %1 样本/秒</translation>
    </message>
    <message>
        <location line="+4"/>
        <source> · %1 tokens/s</source>
        <translation> · %1 词元/秒</translation>
    </message>
    <message>
        <location line="+9"/>
        <source> · test accuracy %1</source>
        <translation> · 测试准确率 %1</translation>
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
        <translation>租约</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Provider</source>
        <translation>提供方</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Nodes</source>
        <translation>节点</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Step / reason</source>
        <translation>步骤 / 原因</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Cost so far</source>
        <translation>累计费用</translation>
    </message>
</context>
<context>
    <name>tessera::LinkBanner</name>
    <message>
        <location filename="../app/connection/linkbanner.cpp" line="+42"/>
        <source>Lost the connection to the server (%1): %2. Reconnecting…; the charts keep what they have and go on without a gap.</source>
        <translation>与服务器(%1)的连接已断开:%2。正在重新连接…;图表保留已有数据,并将无缝继续。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The server (%1) refused this client: %2. Ask its admin for a certificate (tessera-ctl certify --client NAME), then connect again.</source>
        <translation>服务器(%1)拒绝了此客户端:%2。请向其管理员索取证书(tessera-ctl certify --client NAME),然后重新连接。</translation>
    </message>
</context>
<context>
    <name>tessera::LocalLeases</name>
    <message>
        <location filename="../backend/provision/local/localleases.cpp" line="+22"/>
        <source>the worker process ended (%1)</source>
        <translation>工作节点进程已结束（%1）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>every local worker was released</source>
        <translation>所有本地工作节点均已释放</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>local worker</source>
        <translation>本地工作节点</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>this machine</source>
        <translation>本机</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>this machine already runs %1 local workers, the most it offers</source>
        <translation>本机已运行 %1 个本地工作节点，已达上限</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>starting a worker process</source>
        <translation>正在启动工作节点进程</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>released while renting</source>
        <translation>租用过程中被释放</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>waiting for %1 to answer</source>
        <translation>等待 %1 响应</translation>
    </message>
    <message>
        <location line="+47"/>
        <source>its worker had already ended</source>
        <translation>其工作节点已经结束</translation>
    </message>
</context>
<context>
    <name>tessera::LocalWorkers</name>
    <message>
        <location filename="../backend/cluster/localworkers.cpp" line="+121"/>
        <source>cannot rent %1 local workers with %2 slots each: ask for at least one worker with one slot</source>
        <translation>无法租用 %1 个每个 %2 槽位的本地工作节点：至少需要一个带一个槽位的工作节点</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>%1 is missing: build the tessera-worker target, or set TESSERA_BIN_DIR to the folder holding it</source>
        <translation>缺少 %1：请构建 tessera-worker 目标，或将 TESSERA_BIN_DIR 设为包含它的文件夹</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>local workers did not report their address within %1 s; see worker.log in %2</source>
        <translation>本地工作节点在 %1 秒内没有报告地址；请查看 %2 中的 worker.log</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>cannot write the token file %1 (%2): check that the data folder is writable or set TESSERA_DATA_DIR</source>
        <translation>无法写入令牌文件 %1（%2）：请检查数据文件夹是否可写，或设置 TESSERA_DATA_DIR</translation>
    </message>
    <message>
        <location line="+141"/>
        <source>killed by signal %1</source>
        <translation>被信号 %1 终止</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>exit code %1</source>
        <translation>退出码 %1</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>the local worker process ended (%1); see %2</source>
        <translation>本地工作节点进程已结束（%1）；请查看 %2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>local worker %1 ended before it served (%2): %3 (log: %4)</source>
        <translation>本地工作节点 %1 在开始服务前结束（%2）：%3（日志：%4）</translation>
    </message>
</context>
<context>
    <name>tessera::LogPane</name>
    <message>
        <location filename="../app/monitor/logpane.cpp" line="+183"/>
        <source>Job output and cluster events appear here.</source>
        <translation>作业输出和集群事件显示在这里。</translation>
    </message>
    <message>
        <location line="+53"/>
        <source>[%1] state → %2</source>
        <translation>[%1] 状态 → %2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>: %1</source>
        <extracomment>between a job&apos;s new state and the reason for it</extracomment>
        <translation>：%1</translation>
    </message>
</context>
<context>
    <name>tessera::LogRankFilter</name>
    <message>
        <location filename="../app/monitor/logrankfilter.cpp" line="+10"/>
        <source>Show the output of one rank only (state changes and app messages stay)</source>
        <translation>只显示一个 rank 的输出（状态变化和应用消息仍会显示）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>All ranks</source>
        <translation>所有 rank</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>No rank (launcher, Tessera)</source>
        <translation>无 rank（启动器、Tessera）</translation>
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
        <translation>第 %1–%2 层</translation>
    </message>
    <message>
        <location line="+49"/>
        <source>Tessera</source>
        <translation>Tessera</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>&amp;Training</source>
        <translation>训练(&amp;T)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Designer</source>
        <translation>设计器(&amp;D)</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>History is off: %1</source>
        <translation>历史记录已关闭：%1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Renting: %1</source>
        <translation>租用：%1</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>&amp;Output of:</source>
        <translation>输出来源(&amp;O)：</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Cluster</source>
        <translation>集群</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Job</source>
        <translation>作业</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Log</source>
        <translation>日志</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Runs</source>
        <translation>运行记录</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;New layout</source>
        <translation>新建布局(&amp;N)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Ctrl+N</source>
        <translation>Ctrl+N</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Start the Designer over with the default model and machines</source>
        <translation>用默认模型和机器重新开始设计器</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ctrl+Q</source>
        <translation>Ctrl+Q</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Cluster</source>
        <translation>集群(&amp;C)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Rent &amp;machines…</source>
        <translation>租用机器(&amp;M)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Ctrl+Shift+M</source>
        <translation>Ctrl+Shift+M</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Offers of every provider (SSH hosts, local workers): rent, watch the leases, release</source>
        <translation>所有提供方的报价（SSH 主机、本地工作节点）：租用、查看租约、释放</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>&amp;Auto-provision…</source>
        <translation>自动供给(&amp;A)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Ctrl+Shift+A</source>
        <translation>Ctrl+Shift+A</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Rent what a launched job is missing within a budget, and release idle machines</source>
        <translation>在预算内为已启动的作业租用所缺的机器，并释放空闲机器</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>&amp;Job</source>
        <translation>作业(&amp;J)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>De&amp;signer</source>
        <translation>设计器(&amp;S)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Main</source>
        <translation>主工具栏</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>[%1] opened from the history: %2 point(s)</source>
        <translation>[%1] 已从历史记录打开：%2 个数据点</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>[%1] cannot load the run: %2</source>
        <translation>[%1] 无法加载该运行记录：%2</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>[%1] running on the server: following it from its first event</source>
        <translation>[%1] 正在服务器上运行:从其第一个事件开始跟踪</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>[%1] asking the server to cancel it</source>
        <translation>[%1] 正在请求服务器取消它</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>[%1] not cancelled: %2</source>
        <translation>[%1] 未取消:%2</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>[%1] alert: %2</source>
        <translation>[%1] 警报：%2</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>[%1] the server&apos;s stream of this job broke (%2); opening it again</source>
        <translation>[%1] 服务器关于此作业的数据流中断(%2);正在重新打开</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>[%1] following again from event %2</source>
        <translation>[%1] 从事件 %2 起重新跟踪</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>[%1] no longer followed: %2</source>
        <translation>[%1] 不再跟踪:%2</translation>
    </message>
    <message>
        <location line="-20"/>
        <source>[%1] attempt %2 ended (%3); relaunched as attempt %4 on %5, resuming after step %6</source>
        <translation>[%1] 第 %2 次尝试结束（%3）；已作为第 %4 次尝试在 %5 上重新启动，从第 %6 步之后继续</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>auto-provision: %1</source>
        <translation>自动供给：%1</translation>
    </message>
    <message>
        <location filename="../app/mainwindowguards.cpp" line="+71"/>
        <source>Untitled</source>
        <translation>未命名</translation>
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
        <translation>平滑</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Exponential moving average of the train loss, debiased as in TensorBoard: 0 draws the raw values</source>
        <translation>训练损失的指数移动平均，按 TensorBoard 的方式去偏：0 表示绘制原始值</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Log scale</source>
        <translation>对数坐标</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Chart as PNG…</source>
        <translation>图表导出为 PNG…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Data as CSV…</source>
        <translation>数据导出为 CSV…</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>step</source>
        <translation>步</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+23"/>
        <source>test accuracy</source>
        <translation>测试准确率</translation>
    </message>
    <message>
        <location line="-15"/>
        <source>train loss</source>
        <translation>训练损失</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>train loss (smoothed)</source>
        <translation>训练损失（平滑）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>test loss</source>
        <translation>测试损失</translation>
    </message>
    <message>
        <location line="+65"/>
        <source>%1 (accuracy)</source>
        <translation>%1（准确率）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 (test accuracy)</source>
        <translation>%1（测试准确率）</translation>
    </message>
    <message>
        <location line="+209"/>
        <source>Export chart</source>
        <translation>导出图表</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Export chart data</source>
        <translation>导出图表数据</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>PNG images (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
</context>
<context>
    <name>tessera::MonitorPanel</name>
    <message>
        <location filename="../app/monitor/monitorpanel.cpp" line="+38"/>
        <source>Dismiss</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>Charts</source>
        <translation>图表</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Pipeline</source>
        <translation>流水线</translation>
    </message>
    <message>
        <location line="+97"/>
        <source>⚠ %1: %2</source>
        <translation>⚠ %1：%2</translation>
    </message>
</context>
<context>
    <name>tessera::OfferTableModel</name>
    <message>
        <location filename="../app/rent/offertablemodel.cpp" line="+86"/>
        <source>%1 offer %2</source>
        <translation>%1 报价 %2</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>This machine&apos;s memory, shared by all its local workers</source>
        <translation>本机内存，由其所有本地工作节点共享</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Not known yet: the first rent checks the machine (nvidia-smi) and records its GPUs&apos; memory; a CPU-only host&apos;s memory is not recorded</source>
        <translation>暂时未知：首次租用时会检查机器（nvidia-smi）并记录其 GPU 显存；仅有 CPU 的主机不记录内存</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The provider does not say how much memory this offer has</source>
        <translation>提供方没有说明此报价有多少内存</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>%1 per GPU</source>
        <translation>每块 GPU %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 RAM</source>
        <translation>%1 内存</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>$%1/h</source>
        <translation>$%1/小时</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>own</source>
        <translation>自有</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>rented</source>
        <translation>已租用</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Provider</source>
        <translation>提供方</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Slots</source>
        <translation>槽位</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Price</source>
        <translation>价格</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Where</source>
        <translation>位置</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Available</source>
        <translation>可用</translation>
    </message>
</context>
<context>
    <name>tessera::PipelinePredictor</name>
    <message>
        <location filename="../app/monitor/pipelinepredictor.cpp" line="+35"/>
        <source>Predicted</source>
        <translation>预测</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No prediction: the job runs a user command, which the planner cannot describe.</source>
        <translation>无预测：该作业运行的是用户命令，规划器无法描述它。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>No prediction: %1</source>
        <translation>无预测：%1</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>Predicted by the planner: %1, %2 stages, %3 micro-batches (%4)</source>
        <translation>规划器预测：%1，%2 个阶段，%3 个微批次（%4）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>calibrated numbers</source>
        <translation>校准数据</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>datasheet numbers</source>
        <translation>规格书数据</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Predicted shape in relative units: %1, %2 stages, %3 micro-batches (no estimate: %4)</source>
        <translation>以相对单位预测的形状：%1，%2 个阶段，%3 个微批次（无估算：%4）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>zero compute time</source>
        <translation>计算时间为零</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No prediction: the layout&apos;s schedule is invalid.</source>
        <translation>无预测：该布局的调度无效。</translation>
    </message>
</context>
<context>
    <name>tessera::PipelineView</name>
    <message>
        <location filename="../app/monitor/pipelineview.cpp" line="+34"/>
        <location line="+16"/>
        <source>Predicted</source>
        <translation>预测</translation>
    </message>
    <message>
        <location line="-16"/>
        <location line="+17"/>
        <location line="+44"/>
        <source>No job is followed.</source>
        <translation>当前没有跟踪的作业。</translation>
    </message>
    <message>
        <location line="-43"/>
        <source>No prediction from the planner for this job.</source>
        <translation>规划器对此作业没有预测。</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>Measured</source>
        <translation>实测</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Measured at step %1 (%2 of %3 stages reported; 0 = the earliest stage&apos;s step start)</source>
        <translation>第 %1 步实测（%3 个阶段中已报告 %2 个；0 = 最早阶段的该步开始时刻）</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>No measured timeline yet: tessera-train sends one per stage with every perf record (every logEvery steps).</source>
        <translation>尚无实测时间线：tessera-train 会在每条性能记录中为每个阶段发送一条（每 logEvery 步一次）。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Measured timeline: %1</source>
        <translation>实测时间线：%1</translation>
    </message>
</context>
<context>
    <name>tessera::Provider</name>
    <message>
        <location filename="../backend/provision/provider.cpp" line="+121"/>
        <source>Tessera stopped while this lease was %1</source>
        <translation>Tessera 停止时此租约处于“%1”状态</translation>
    </message>
</context>
<context>
    <name>tessera::Question</name>
    <message>
        <location filename="../app/question.cpp" line="+34"/>
        <source>&amp;Stop the job</source>
        <translation>停止作业(&amp;S)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Keep it running</source>
        <translation>保持运行(&amp;K)</translation>
    </message>
</context>
<context>
    <name>tessera::RecoveryMarkers</name>
    <message>
        <location filename="../app/monitor/recoverymarkers.cpp" line="+36"/>
        <source>↻ attempt %1
%2</source>
        <translation>↻ 第 %1 次尝试
%2</translation>
    </message>
</context>
<context>
    <name>tessera::RentDialog</name>
    <message>
        <location filename="../app/rent/rentdialog.cpp" line="+66"/>
        <source>&amp;Rent selected</source>
        <translation>租用所选(&amp;R)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Re&amp;lease selected</source>
        <translation>释放所选(&amp;L)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Release &amp;everything…</source>
        <translation>全部释放(&amp;E)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Add SSH host…</source>
        <translation>添加 SSH 主机(&amp;A)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Add SSH &amp;host…</source>
        <translation>添加 SSH 主机(&amp;H)…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Rent machines</source>
        <translation>租用机器</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Release every live lease of every provider and terminate the cloud instances Tessera lost track of</source>
        <translation>释放所有提供方的全部有效租约，并终止 Tessera 丢失跟踪的云实例</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Add a Linux machine you can log in to over SSH</source>
        <translation>添加一台你能通过 SSH 登录的 Linux 机器</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>&lt;b&gt;No machine of yours is set up yet&lt;/b&gt; — only this machine&apos;s local workers are on offer. Add a Linux machine you can log in to with SSH and it appears above, ready to rent.</source>
        <translation>&lt;b&gt;你还没有设置任何自己的机器&lt;/b&gt; — 目前只提供本机的本地工作节点。添加一台你能通过 SSH 登录的 Linux 机器，它就会出现在上方，可以租用。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Or edit %1 (its fields are in the README); Slurm partitions go in slurm-clusters.json beside it.</source>
        <translation>或者编辑 %1（字段说明见 README）；Slurm 分区写在它旁边的 slurm-clusters.json 中。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>SSH hosts are kept in %1.</source>
        <translation>SSH 主机保存在 %1 中。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>No leases in this session yet: select an offer above and press Rent selected. (Workers started with the Cluster panel&apos;s Rent local workers are not leases: the Cluster panel lists them.)</source>
        <translation>本次会话还没有租约：在上方选择一个报价并点击“租用所选”。（通过集群面板“租用本地工作节点”启动的工作节点不是租约：它们列在集群面板中。）</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Offers</source>
        <translation>报价</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Leases</source>
        <translation>租约</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 is ready: %2 joined the cluster</source>
        <translation>%1 已就绪：%2 已加入集群</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 failed: %2</source>
        <translation>%1 失败：%2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 released</source>
        <translation>%1 已释放</translation>
    </message>
    <message>
        <location line="+56"/>
        <source>Added %1 (%2) to %3</source>
        <translation>已将 %1（%2）添加到 %3</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>Renting %1</source>
        <translation>正在租用 %1</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Releasing %1…</source>
        <translation>正在释放 %1…</translation>
    </message>
    <message>
        <location line="+8"/>
        <location line="+6"/>
        <source>Release everything</source>
        <translation>全部释放</translation>
    </message>
    <message>
        <location line="-5"/>
        <source>Release every live lease and terminate every cloud instance Tessera lost track of? Jobs running on them fail.</source>
        <translation>释放全部有效租约并终止 Tessera 丢失跟踪的所有云实例？其上运行的作业将失败。</translation>
    </message>
    <message numerus="yes">
        <location line="+21"/>
        <source>Releasing %n lease(s)…</source>
        <translation>
            <numerusform>正在释放 %n 个租约…</numerusform>
        </translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Cost so far $%1 · now $%2/h</source>
        <translation>累计费用 $%1 · 当前 $%2/小时</translation>
    </message>
</context>
<context>
    <name>tessera::ResumeController</name>
    <message>
        <location filename="../app/jobs/resumecontroller.cpp" line="+54"/>
        <source>Res&amp;ume from checkpoint</source>
        <translation>从检查点续训(&amp;U)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Ctrl+Alt+R</source>
        <translation>Ctrl+Alt+R</translation>
    </message>
    <message>
        <location line="+79"/>
        <source>Nothing to resume: a stopped or failed run that wrote a checkpoint can be resumed (the Job panel&apos;s last job, or one opened from the Runs list).</source>
        <translation>没有可续训的运行：只有写过检查点且已停止或失败的运行才能续训（作业面板中的最后一个作业，或从运行记录列表中打开的作业）。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Preparing the resume of %1…</source>
        <translation>正在准备续训 %1…</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 is not in the history: nothing to resume.</source>
        <translation>%1 不在历史记录中：没有可续训的内容。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reading %1 from the history…</source>
        <translation>正在从历史记录读取 %1…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 succeeded: there is nothing left to resume.</source>
        <translation>%1 已成功：没有需要续训的内容。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 is %2: Resume is for a run that was stopped or failed.</source>
        <translation>%1 的状态是“%2”：续训只适用于已停止或失败的运行。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 wrote no checkpoint to resume from (set checkpoint.everySteps in its spec to write some).</source>
        <translation>%1 没有写入可用于续训的检查点（在其规格中设置 checkpoint.everySteps 以写入检查点）。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Run %1 again from its checkpoint of step %2 (%3)</source>
        <translation>从第 %2 步的检查点重新运行 %1（%3）</translation>
    </message>
    <message>
        <location line="+24"/>
        <location line="+21"/>
        <source>Cannot resume %1: %2</source>
        <translation>无法续训 %1：%2</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Cannot write the resumed job&apos;s spec &apos;%1&apos;: %2</source>
        <translation>无法写入续训作业的规格“%1”：%2</translation>
    </message>
</context>
<context>
    <name>tessera::RunHeading</name>
    <message>
        <location filename="../app/monitor/runheading.cpp" line="+24"/>
        <location line="+6"/>
        <source>Showing %1</source>
        <translation>正在显示 %1</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>No run shown: launch a job, or double-click a run in Runs</source>
        <translation>未显示任何运行：启动一个作业，或在运行记录中双击一条</translation>
    </message>
</context>
<context>
    <name>tessera::RunList</name>
    <message>
        <location filename="../app/monitor/runlist.cpp" line="+67"/>
        <source>Filter by name, layout or state</source>
        <translation>按名称、布局或状态筛选</translation>
    </message>
    <message>
        <location line="+49"/>
        <source>Click to sort; right-click to show or hide columns</source>
        <translation>点击排序；右键单击可显示或隐藏列</translation>
    </message>
    <message>
        <location line="+82"/>
        <source>&amp;Open in the charts</source>
        <translation>在图表中打开(&amp;O)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Overlay on the chart</source>
        <translation>叠加到图表(&amp;O)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Cancel job</source>
        <translation>取消作业(&amp;C)</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>No history database: runs are not kept.</source>
        <translation>没有历史数据库：运行记录不会保存。</translation>
    </message>
</context>
<context>
    <name>tessera::RunSummary</name>
    <message>
        <location filename="../app/monitor/runsummary.cpp" line="+102"/>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
</context>
<context>
    <name>tessera::RunTableModel</name>
    <message>
        <location filename="../app/monitor/runtablemodel.cpp" line="+142"/>
        <source>%1 · started %2 · ran %3</source>
        <translation>%1 · 开始于 %2 · 运行了 %3</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>final loss %1 · test accuracy %2</source>
        <translation>最终损失 %1 · 测试准确率 %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Double-click to open it in the charts; check it to draw its curves beside the shown run.</source>
        <translation>双击在图表中打开；勾选可在当前显示的运行旁边绘制它的曲线。</translation>
    </message>
    <message>
        <location line="+81"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Layout</source>
        <translation>布局</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Acc.</source>
        <translation>准确率</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Started</source>
        <translation>开始时间</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Duration</source>
        <translation>时长</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The run&apos;s name (its id when it has none); check a run to overlay its curves on the chart</source>
        <translation>运行名称（没有名称时为其 ID）；勾选一个运行可在图表上叠加它的曲线</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Data-parallel replicas (DP) × pipeline stages (PP) × tensor-parallel width (TP); factors of 1 are left out</source>
        <translation>数据并行副本数（DP）× 流水线阶段数（PP）× 张量并行宽度（TP）；为 1 的因子省略不写</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The last train loss the run reported</source>
        <translation>该运行最后报告的训练损失</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The last test accuracy the run reported (0–1)</source>
        <translation>该运行最后报告的测试准确率（0–1）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>When it started running (local time)</source>
        <translation>开始运行的时间（本地时间）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>How long it ran (m:ss or h:mm:ss)</source>
        <translation>运行时长（m:ss 或 h:mm:ss）</translation>
    </message>
</context>
<context>
    <name>tessera::ServerProcess</name>
    <message>
        <location filename="../backend/server/serverprocess.cpp" line="+95"/>
        <source>warning: no history (no audit log either): %1</source>
        <translation>警告:没有历史记录(也没有审计日志):%1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>warning: %1</source>
        <translation>警告:%1</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>serving %1 on %2 (%3 job(s) to follow; admins: %4)</source>
        <translation>在 %2 上为 %1 提供服务(需跟踪 %3 个作业;管理员:%4)</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>job %1 %2%3</source>
        <translation>作业 %1 %2%3</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>following job %1 again from event %2</source>
        <translation>从事件 %2 起重新跟踪作业 %1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>job %1: %2; relaunching it as attempt %3 on %4 from step %5</source>
        <translation>作业 %1:%2;在 %4 上以第 %3 次尝试从第 %5 步重新启动</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>autoscaler: </source>
        <translation>自动扩缩:</translation>
    </message>
</context>
<context>
    <name>tessera::SshHostForm</name>
    <message>
        <location filename="../app/rent/sshhostform.cpp" line="+37"/>
        <source>Address: enter the machine&apos;s host name or IP address, e.g. gpu-box.lan or me@10.0.0.5.</source>
        <translation>地址：请输入机器的主机名或 IP 地址，例如 gpu-box.lan 或 me@10.0.0.5。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Address: &quot;%1&quot; must be host or user@host.</source>
        <translation>地址：“%1”必须是 host 或 user@host 的形式。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>SSH user: &quot;%1&quot; differs from the user in Address (&quot;%2&quot;); keep one of them.</source>
        <translation>SSH 用户：“%1”与地址中的用户（“%2”）不同；请只保留其中一个。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Address: &quot;%1&quot; is not a host name or IP address (letters, digits, &apos;.&apos;, &apos;-&apos; and &apos;:&apos; only; the port goes in Port).</source>
        <translation>地址：“%1”不是主机名或 IP 地址（只能包含字母、数字、“.”、“-”和“:”；端口请填在“端口”中）。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>SSH user: &quot;%1&quot; is not a login name (letters, digits, &apos;.&apos;, &apos;_&apos; and &apos;-&apos;, not starting with &apos;-&apos;).</source>
        <translation>SSH 用户：“%1”不是有效的登录名（只能包含字母、数字、“.”、“_”和“-”，且不能以“-”开头）。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Name: &quot;%1&quot; cannot name a node: use up to 63 letters, digits, &apos;.&apos;, &apos;_&apos; and &apos;-&apos;, e.g. lab-a.</source>
        <translation>名称：“%1”不能用作节点名：最多 63 个字母、数字、“.”、“_”和“-”，例如 lab-a。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Port: %1 is not a TCP port (1-65535).</source>
        <translation>端口：%1 不是 TCP 端口（1-65535）。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Identity file: %1 does not exist; choose the private key ssh logs in with, or leave it empty for ssh-agent.</source>
        <translation>身份密钥文件：%1 不存在；请选择 ssh 登录所用的私钥，或留空以使用 ssh-agent。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Identity file: %1 is not a readable file.</source>
        <translation>身份密钥文件：%1 不是可读文件。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Identity file: %1 is the public key; choose the private key (the same name without .pub).</source>
        <translation>身份密钥文件：%1 是公钥；请选择私钥（去掉 .pub 的同名文件）。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Known hosts file: %1 is a folder; name a file in it, e.g. %1/known_hosts.</source>
        <translation>已知主机文件：%1 是文件夹；请指定其中的一个文件，例如 %1/known_hosts。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>GPUs: the numbers of GPUs, their memory and the cores cannot be negative.</source>
        <translation>GPU：GPU 数量、显存和核数都不能为负数。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>GPUs: 0 (CPU only), but a GPU model or memory is set: enter the number of GPUs, or clear the model and memory.</source>
        <translation>GPU：数量为 0（仅 CPU），但设置了 GPU 型号或显存：请输入 GPU 数量，或清除型号和显存。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Price per hour: cannot be negative (0 for your own machine).</source>
        <translation>每小时价格：不能为负数（你自己的机器填 0）。</translation>
    </message>
</context>
<context>
    <name>tessera::SshHostProbe</name>
    <message>
        <location filename="../app/rent/sshhostprobe.cpp" line="+61"/>
        <source>Fetching the host key of %1…</source>
        <translation>正在获取 %1 的主机密钥…</translation>
    </message>
    <message>
        <location line="+6"/>
        <location line="+121"/>
        <source>Cannot run %1 (%2): install the Debian package openssh-client.</source>
        <translation>无法运行 %1（%2）：请安装 Debian 软件包 openssh-client。</translation>
    </message>
    <message>
        <location line="-111"/>
        <source>%1 sent no host key%2: check the address and the port, and that sshd runs there.</source>
        <translation>%1 没有发送主机密钥%2：请检查地址和端口，并确认那里运行着 sshd。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source> in time</source>
        <translation>（超时）</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Cannot compute the fingerprints of %1&apos;s host keys with %2 (%3): install the Debian package openssh-client.</source>
        <translation>无法用 %2 计算 %1 的主机密钥指纹（%3）：请安装 Debian 软件包 openssh-client。</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>Cannot read the known hosts file %1 (%2): check that it is a readable file.</source>
        <translation>无法读取已知主机文件 %1（%2）：请检查它是否为可读文件。</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Compare the fingerprint with the machine&apos;s own, then accept or reject it.</source>
        <translation>请将指纹与机器本身的指纹进行比对，然后接受或拒绝。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>%1 now shows a host key that %2 does not hold for it%3: someone may be intercepting the connection, or the machine was reinstalled. Ask its owner; only if the new fingerprint is right, remove the old key with ssh-keygen -R &apos;%4&apos; -f %2 and test again.</source>
        <translation>%1 现在显示的主机密钥与 %2 中记录的不同%3：可能有人在拦截连接，也可能机器已重装。请询问机器的所有者；只有在确认新指纹正确时，才用 ssh-keygen -R &apos;%4&apos; -f %2 删除旧密钥并重新测试。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source> (the key is marked revoked)</source>
        <translation>（该密钥已被标记为吊销）</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>The host key of %1 was rejected: nothing was written.</source>
        <translation>已拒绝 %1 的主机密钥：未写入任何内容。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Logging in to %1…</source>
        <translation>正在登录 %1…</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>testing the connection</source>
        <translation>正在测试连接</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>unknown system</source>
        <translation>未知系统</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>1 core</source>
        <translation>1 核</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>%1 cores</source>
        <translation>%1 核</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 RAM</source>
        <translation>%1 内存</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>no Open MPI</source>
        <translation>未安装 Open MPI</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 × %2 (%3)</source>
        <translation>%1 × %2（%3）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no GPU</source>
        <translation>无 GPU</translation>
    </message>
</context>
<context>
    <name>tessera::SshHostsFile</name>
    <message>
        <location filename="../backend/provision/ssh/sshhostsfile.cpp" line="+26"/>
        <source>The SSH hosts file %1 %2; fix it or move it away (nothing was written).</source>
        <translation>SSH 主机文件 %1 %2；请修正或移走它（未写入任何内容）。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>line %1, column %2</source>
        <translation>第 %1 行，第 %2 列</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Name: the hosts file already has a host called %1 (entry %2); pick another name.</source>
        <translation>名称：主机文件中已有名为 %1 的主机（第 %2 项）；请换一个名称。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Address: %1 is already in the hosts file as %2 (entry %3).</source>
        <translation>地址：%1 已作为 %2 记录在主机文件中（第 %3 项）。</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Cannot read the SSH hosts file %1: %2.</source>
        <translation>无法读取 SSH 主机文件 %1：%2。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>is not valid JSON at %1 (%2)</source>
        <translation>在 %1 处不是有效的 JSON（%2）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>is not a JSON object ({&quot;hosts&quot;: [...]})</source>
        <translation>不是 JSON 对象（{&quot;hosts&quot;: [...]}）</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>has a &quot;hosts&quot; that is not a list</source>
        <translation>其中的 &quot;hosts&quot; 不是列表</translation>
    </message>
    <message>
        <location line="+6"/>
        <source> (nothing was written)</source>
        <translation>（未写入任何内容）</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Cannot create the folder %1 for the SSH hosts file: check its parent&apos;s permissions.</source>
        <translation>无法为 SSH 主机文件创建文件夹 %1：请检查上级文件夹的权限。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Cannot write the SSH hosts file %1: %2.</source>
        <translation>无法写入 SSH 主机文件 %1：%2。</translation>
    </message>
</context>
<context>
    <name>tessera::StateText</name>
    <message>
        <location filename="../backend/core/jobtypes.cpp" line="+18"/>
        <source>queued</source>
        <comment>job state</comment>
        <translation>排队中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>starting</source>
        <comment>job state</comment>
        <translation>启动中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>running</source>
        <comment>job state</comment>
        <translation>运行中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>succeeded</source>
        <comment>job state</comment>
        <translation>已成功</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>failed</source>
        <comment>job state</comment>
        <translation>已失败</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>cancelled</source>
        <comment>job state</comment>
        <translation>已取消</translation>
    </message>
    <message>
        <location filename="../backend/core/workernode.cpp" line="+16"/>
        <source>connecting</source>
        <comment>worker state</comment>
        <translation>连接中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>ready</source>
        <comment>worker state</comment>
        <translation>就绪</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>unreachable</source>
        <comment>worker state</comment>
        <translation>无法连接</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>stopped</source>
        <comment>worker state</comment>
        <translation>已停止</translation>
    </message>
    <message>
        <location filename="../backend/provision/lease.cpp" line="+16"/>
        <source>requested</source>
        <comment>lease state</comment>
        <translation>已请求</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>booting</source>
        <comment>lease state</comment>
        <translation>启动中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>installing</source>
        <comment>lease state</comment>
        <translation>安装中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>registering</source>
        <comment>lease state</comment>
        <translation>注册中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>ready</source>
        <comment>lease state</comment>
        <translation>就绪</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>failed</source>
        <comment>lease state</comment>
        <translation>已失败</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>released</source>
        <comment>lease state</comment>
        <translation>已释放</translation>
    </message>
</context>
<context>
    <name>tessera::StatusHint</name>
    <message>
        <location filename="../app/statushint.cpp" line="+60"/>
        <source>Designer: drag layers onto a device to make them its pipeline stage; Ctrl+Z undoes, the Designer menu saves and launches the layout.</source>
        <translation>设计器：把层拖到设备上，使其成为该设备的流水线阶段；Ctrl+Z 撤销，“设计器”菜单可保存和启动布局。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Job %1 is %2: loss and accuracy arrive in the charts, its output in the Log; Cancel (%3) stops it.</source>
        <translation>作业 %1 %2：损失和准确率显示在图表中，输出显示在日志中；取消（%3）可停止它。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Rent local workers (%1) or machines (%2), pick a spec, then Launch (%3).</source>
        <translation>租用本地工作节点（%1）或机器（%2），选择作业规格，然后启动（%3）。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Job %1 %2. Launch again (%3), or double-click a run in Runs to look at it.</source>
        <translation>作业 %1 %2。可再次启动（%3），或在运行记录中双击一条查看。</translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>%n worker(s) ready: pick a spec, then Launch (%1).</source>
        <translation>
            <numerusform>%n 个工作节点已就绪：选择作业规格，然后启动（%1）。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>tessera::StepTimeChart</name>
    <message>
        <location filename="../app/monitor/steptimechart.cpp" line="+47"/>
        <source>compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>compute: forward and backward passes</source>
        <translation>计算：前向和反向传播</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>exposed comm.</source>
        <translation>暴露通信</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>exposed communication: the part not hidden behind compute</source>
        <translation>暴露通信：未被计算掩盖的部分</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>bubble</source>
        <translation>气泡</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>pipeline bubble: idle while other stages work</source>
        <translation>流水线气泡：其他阶段工作时的空闲</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>rank</source>
        <translation>rank</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>ms per step</source>
        <translation>每步毫秒数</translation>
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
        <translation>rank %1：阶段 %2，数据并行 rank %3，张量并行 rank %4</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>step %1 ms = compute %2 + exposed communication %3 + bubble %4 (at step %5)</source>
        <translation>每步 %1 ms = 计算 %2 + 暴露通信 %3 + 气泡 %4（第 %5 步）</translation>
    </message>
</context>
<context>
    <name>tessera::StreamFollower</name>
    <message>
        <location filename="../backend/cluster/streamfollower.cpp" line="+108"/>
        <source>%1 — gave up following %2 after %3 s</source>
        <translation>%1 — %3 秒后放弃跟踪 %2</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>stream ended before its final message</source>
        <translation>数据流在最后一条消息之前结束</translation>
    </message>
</context>
<context>
    <name>tessera::ThroughputChart</name>
    <message>
        <location filename="../app/monitor/throughputchart.cpp" line="+24"/>
        <source>step</source>
        <translation>步</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>samples/s (left)</source>
        <translation>样本/秒（左轴）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>learning rate (right)</source>
        <translation>学习率（右轴）</translation>
    </message>
</context>
<context>
    <name>tessera::UtilizationChart</name>
    <message>
        <location filename="../app/monitor/utilizationchart.cpp" line="+84"/>
        <source>utilization %</source>
        <translation>利用率 %</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>memory GiB</source>
        <translation>内存 GiB</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>time since start</source>
        <translation>自开始以来的时间</translation>
    </message>
    <message>
        <location line="+148"/>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 · %2 (%3)</source>
        <translation>%1 · %2（%3）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>utilization %1 · memory %2 / %3 GiB</source>
        <translation>利用率 %1 · 内存 %2 / %3 GiB</translation>
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
        <translation>不承载此作业的任何 rank</translation>
    </message>
</context>
<context>
    <name>tessera::WindowGuard</name>
    <message numerus="yes">
        <location filename="../app/windowguard.cpp" line="+31"/>
        <source>%n job(s) did not stop within %1 s: going on without them (%2).</source>
        <translation>
            <numerusform>%n 个作业未能在 %1 秒内停止：不再等待它们（%2）。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+53"/>
        <source>Unsaved layout</source>
        <translation>布局未保存</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The new layout has changes that are not saved.</source>
        <translation>新布局有尚未保存的更改。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The layout %1 has changes that are not saved.</source>
        <translation>布局 %1 有尚未保存的更改。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Save them before you %1? Discard drops them; Cancel keeps working on the layout.</source>
        <translation>在%1之前保存这些更改吗？“放弃”会丢弃更改；“取消”则继续编辑布局。</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Quit Tessera</source>
        <translation>退出 Tessera</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n job(s) still running: %1.</source>
        <translation>
            <numerusform>仍有 %n 个作业在运行：%1。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Quitting stops them: local workers end with Tessera, and their jobs with them. Stop the jobs and quit, or cancel to keep them running.</source>
        <translation>退出会停止它们：本地工作节点随 Tessera 一起结束，其上的作业也会随之结束。请停止作业后退出，或取消以保持它们运行。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Their workers are on other machines: the jobs can go on after Tessera quits, and it follows them again at its next start (the charts fill in what they printed meanwhile), or be stopped first.</source>
        <translation>它们的 worker 在其他机器上：Tessera 退出后作业可以继续运行，下次启动时 Tessera 会重新跟踪它们（图表会补上其间输出的内容）；也可以先停止它们。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Meanwhile tessera-ctl serve (pid %1) follows them: it relaunches a job that loses a node and releases rented machines left idle.</source>
        <translation>在此期间 tessera-ctl serve（PID %1）会跟踪它们：作业丢失节点时重新启动它，并释放闲置的租用机器。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Meanwhile nobody follows them: no relaunch after a node loss, no release of idle rented machines. `tessera-ctl serve` does that (systemctl --user enable --now tessera-backend).</source>
        <translation>在此期间没有人跟踪它们：节点丢失后不会重新启动，闲置的租用机器也不会释放。`tessera-ctl serve` 可以做到（systemctl --user enable --now tessera-backend）。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;Stop and quit</source>
        <translation>停止并退出(&amp;S)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Quit, keep running</source>
        <translation>退出，保持运行(&amp;Q)</translation>
    </message>
    <message numerus="yes">
        <location line="+5"/>
        <source>Stopping %n job(s) before quitting…</source>
        <translation>
            <numerusform>退出前正在停止 %n 个作业…</numerusform>
        </translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Release workers</source>
        <translation>释放工作节点</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n job(s) run on the local workers: %1.</source>
        <translation>
            <numerusform>有 %n 个作业运行在本地工作节点上：%1。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Releasing the workers stops these jobs. Stop them and release the workers, or cancel to keep them running.</source>
        <translation>释放工作节点会停止这些作业。请停止它们并释放工作节点，或取消以保持它们运行。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Stop and release</source>
        <translation>停止并释放(&amp;S)</translation>
    </message>
    <message numerus="yes">
        <location line="+5"/>
        <source>Stopping %n job(s) before releasing the workers…</source>
        <translation>
            <numerusform>释放工作节点前正在停止 %n 个作业…</numerusform>
        </translation>
    </message>
    <message>
        <location line="+5"/>
        <source>its workers were released</source>
        <translation>其工作节点已被释放</translation>
    </message>
</context>
<context>
    <name>tessera::WorkdirShipper</name>
    <message>
        <location filename="../backend/jobs/workdirshipper.cpp" line="+60"/>
        <source>code %1 (%2 files, bundle %3)</source>
        <translation>代码 %1（%2 个文件，代码包 %3）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source> shipped to %1</source>
        <translation> 已分发到 %1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 already had it</source>
        <translation>%1 已有该代码包</translation>
    </message>
</context>
<context>
    <name>tessera::WorkerClient</name>
    <message>
        <location filename="../backend/cluster/workerclient.cpp" line="+70"/>
        <source>worker %1 closed the connection (%2): if it was started with --tls-cert, connect with the cluster&apos;s certificates (tessera-ctl --tls, or --tls-ca/--tls-cert/--tls-key)</source>
        <translation>工作节点 %1 关闭了连接（%2）：如果它以 --tls-cert 启动，请使用集群的证书连接（tessera-ctl --tls，或 --tls-ca/--tls-cert/--tls-key）</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>worker %1: its certificate was refused (%2): it was not issued by this cluster&apos;s CA, has expired, or does not name this address; re-rent the node (Tessera issues a new certificate) or give it one from `tessera-ctl certify`</source>
        <translation>工作节点 %1：其证书被拒绝（%2）：它不是由本集群的 CA 签发、已过期，或不包含此地址；请重新租用该节点（Tessera 会签发新证书），或用 `tessera-ctl certify` 为它签发一个</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>worker %1: refused this side&apos;s certificate: %2</source>
        <translation>工作节点 %1 拒绝了本端的证书：%2</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>worker %1 ended the TLS handshake (%2): it trusts another CA than this cluster&apos;s, or it serves plaintext (started with --insecure, or on loopback); give it a certificate from `tessera-ctl certify`, or connect without TLS if it is meant to be plaintext</source>
        <translation>工作节点 %1 中止了 TLS 握手（%2）：它信任的 CA 不是本集群的，或者它使用明文（以 --insecure 或在回环地址上启动）；请用 `tessera-ctl certify` 为它签发证书，若它本应使用明文则不用 TLS 连接</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>worker %1 (%2): does not answer (%3); check that tessera-worker runs there and the address and port are right</source>
        <translation>工作节点 %1（%2）：无响应（%3）；请检查那里是否运行着 tessera-worker，以及地址和端口是否正确</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>worker %1 (%2): refused the token (%3); use the token file the worker was started with</source>
        <translation>工作节点 %1（%2）：拒绝了令牌（%3）；请使用启动该工作节点时所用的令牌文件</translation>
    </message>
    <message>
        <location line="+8"/>
        <location line="+3"/>
        <source>worker %1 (%2): %3</source>
        <translation>工作节点 %1（%2）：%3</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>worker %1 (%2): failed with gRPC status %3: %4</source>
        <translation>工作节点 %1（%2）：失败，gRPC 状态 %3：%4</translation>
    </message>
</context>
<context>
    <name>tessera::client::LocalServer</name>
    <message>
        <location filename="../backend/client/localserver.cpp" line="+59"/>
        <source>the data folder %1 is in use by %2: stop it first (a `tessera-ctl serve` with Ctrl-C or TERM), or use another data folder (--data-dir)</source>
        <translation>数据文件夹 %1 正被 %2 使用:请先停止它(`tessera-ctl serve` 用 Ctrl-C 或 TERM),或使用其他数据文件夹(--data-dir)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>the tessera-server for %1 did not answer within %2 s; its log (%3) ends:
%4</source>
        <translation>%1 的 tessera-server 未在 %2 秒内应答;其日志(%3)结尾为:
%4</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>the tessera-server for %1 stopped at start; its log (%2) ends:
%3</source>
        <translation>%1 的 tessera-server 在启动时停止;其日志(%2)结尾为:
%3</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 is missing: build the tessera-server target, or set TESSERA_BIN_DIR to the folder that holds it</source>
        <translation>缺少 %1:请构建 tessera-server 目标,或将 TESSERA_BIN_DIR 设为包含它的文件夹</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>cannot start %1: %2</source>
        <translation>无法启动 %1:%2</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>cannot start %1: fork failed</source>
        <translation>无法启动 %1:fork 失败</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>  (no log)</source>
        <translation>  (无日志)</translation>
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
        <translation>，EP %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source> (layers %1)</source>
        <translation>（层 %1）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>, %1 micro-batches, %2</source>
        <translation>，%1 个微批次，%2</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>&amp;Search</source>
        <translation>搜索(&amp;S)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Apply</source>
        <translation>应用(&amp;A)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Auto-plan</source>
        <translation>自动规划</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Fastest layout that fits</source>
        <translation>能放下的最快布局</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cheapest within the deadline</source>
        <translation>截止时间内最便宜的布局</translation>
    </message>
    <message>
        <location line="+6"/>
        <source> h</source>
        <translation> 小时</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&amp;Goal:</source>
        <translation>目标(&amp;G)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>S&amp;teps of the run:</source>
        <translation>运行步数(&amp;T)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Deadline:</source>
        <translation>截止时间(&amp;D)：</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>Searching…</source>
        <translation>正在搜索…</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>%1/step — %2</source>
        <translation>%1/步 — %2</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Auto-plan cannot estimate this cluster: %1</source>
        <translation>自动规划无法估算此集群：%1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>No layout fits these machines: add devices, use ZeRO or recompute, or pick a smaller model.</source>
        <translation>没有布局能放进这些机器：请增加设备、使用 ZeRO 或重计算，或选择更小的模型。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Pick a layout and Apply it; you can keep editing it after.</source>
        <translation>选择一个布局并应用；之后仍可继续编辑。</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Apply auto-plan: %1</source>
        <translation>应用自动规划：%1</translation>
    </message>
</context>
<context>
    <name>tessera::designer::ClusterScene</name>
    <message>
        <location filename="../app/designer/clusterscene.cpp" line="+173"/>
        <source>Context-parallel group of stage %1, DP replica %2: ranks %3–%4 split each sequence %5 ways and pass keys and values around a ring</source>
        <translation>阶段 %1、DP 副本 %2 的上下文并行组：rank %3–%4 把每个序列切成 %5 份，并沿环传递键和值</translation>
    </message>
    <message>
        <location line="-136"/>
        <source>%1 · %2 × %3</source>
        <translation>%1 · %2 × %3</translation>
    </message>
    <message>
        <location line="+6"/>
        <source> · $%1/h</source>
        <translation> · $%1/小时</translation>
    </message>
    <message>
        <location line="+120"/>
        <source>Tensor-parallel group of stage %1, DP replica %2: ranks %3–%4</source>
        <translation>阶段 %1、DP 副本 %2 的张量并行组：rank %3–%4</translation>
    </message>
    <message>
        <location line="+61"/>
        <source>no ranks</source>
        <translation>无 rank</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>ranks %1–%2 · stages %3</source>
        <translation>rank %1–%2 · 阶段 %3</translation>
    </message>
    <message>
        <location line="+5"/>
        <source> · %1 idle</source>
        <translation> · %1 个空闲</translation>
    </message>
</context>
<context>
    <name>tessera::designer::DesignerPanel</name>
    <message>
        <location filename="../app/designer/designeractions.cpp" line="+89"/>
        <source>TP communication overlap</source>
        <translation>TP 通信重叠</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ctrl+Alt+T</source>
        <translation>Ctrl+Alt+T</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Overlap the tensor-parallel all-gathers and reduce-scatters with the GEMMs around them (Megatron-LM&apos;s --tp-comm-overlap; needs sequence parallelism): only what those GEMMs cannot hide is exposed</source>
        <translation>让张量并行的 all-gather 和 reduce-scatter 与其前后的 GEMM 重叠（Megatron-LM 的 --tp-comm-overlap；需要序列并行）：只有这些 GEMM 无法掩盖的部分会暴露</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Turn TP overlap on</source>
        <translation>开启 TP 重叠</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Turn TP overlap off</source>
        <translation>关闭 TP 重叠</translation>
    </message>
    <message>
        <location line="-56"/>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Ctrl+Z</source>
        <translation>Ctrl+Z</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Undo the last edit of the layout</source>
        <translation>撤销对布局的上一次编辑</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Ctrl+Shift+Z</source>
        <translation>Ctrl+Shift+Z</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Redo the edit undone last</source>
        <translation>重做上一次撤销的编辑</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Undo: %1 (%2)</source>
        <translation>撤销：%1（%2）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Redo: %1 (%2)</source>
        <translation>重做：%1（%2）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Open layout…</source>
        <translation>打开布局…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ctrl+Shift+O</source>
        <translation>Ctrl+Shift+O</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Open a *.tessera-plan.json layout file</source>
        <translation>打开 *.tessera-plan.json 布局文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+309"/>
        <source>Save layout</source>
        <translation>保存布局</translation>
    </message>
    <message>
        <location line="-309"/>
        <source>Ctrl+S</source>
        <translation>Ctrl+S</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Save the layout file</source>
        <translation>保存布局文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Save layout as…</source>
        <translation>布局另存为…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ctrl+Shift+S</source>
        <translation>Ctrl+Shift+S</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Save the layout under a new name</source>
        <translation>以新名称保存布局</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Import config.json…</source>
        <translation>导入 config.json…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ctrl+I</source>
        <translation>Ctrl+I</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Plan a Hugging Face model (GPT-2, LLaMA, Mistral) from its config.json</source>
        <translation>根据 config.json 规划 Hugging Face 模型（GPT-2、LLaMA、Mistral）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Use live cluster</source>
        <translation>使用实时集群</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ctrl+Shift+U</source>
        <translation>Ctrl+Shift+U</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Plan on the Ready workers of the Cluster panel</source>
        <translation>在集群面板中的就绪工作节点上规划</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Auto-plan…</source>
        <translation>自动规划…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ctrl+Shift+P</source>
        <translation>Ctrl+Shift+P</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Search the fastest (or cheapest) layouts that fit</source>
        <translation>搜索能放下的最快（或最便宜）布局</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Export layout…</source>
        <translation>导出布局…</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Ctrl+Shift+E</source>
        <translation>Ctrl+Shift+E</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show the layout as Megatron-LM arguments, a DeepSpeed config and torchtitan TOML</source>
        <translation>以 Megatron-LM 参数、DeepSpeed 配置和 torchtitan TOML 显示布局</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Launch layout</source>
        <translation>启动布局</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ctrl+Shift+L</source>
        <translation>Ctrl+Shift+L</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Run the drawn layout as a job</source>
        <translation>将绘制的布局作为作业运行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Launch with program…</source>
        <translation>用程序启动…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ctrl+Alt+L</source>
        <translation>Ctrl+Alt+L</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Run your own program (PyTorch, …) over the drawn layout</source>
        <translation>在绘制的布局上运行你自己的程序（PyTorch 等）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Assign to device</source>
        <translation>分配到设备</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ctrl+Return</source>
        <translation>Ctrl+Return</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Assign the selected layers to the device chosen in the Device list</source>
        <translation>将所选层分配到“设备”列表中选定的设备</translation>
    </message>
    <message>
        <location line="+74"/>
        <source>switch the model to %1</source>
        <translation>将模型切换为 %1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Set model to %1</source>
        <translation>将模型设为 %1</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>%1 (from the layout file)</source>
        <translation>%1（来自布局文件）</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Machines: &apos;%1&apos; is not a price; write it as &apos;@ 23.92/h&apos; (USD per node-hour).</source>
        <translation>机器：“%1”不是价格；请写成“@ 23.92/h”（每节点每小时美元）。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Machines: %1</source>
        <translation>机器：%1</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Plan on %1</source>
        <translation>在 %1 上规划</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Planning on %1.</source>
        <translation>正在 %1 上规划。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>No Ready workers: rent local workers in the Cluster panel (Ctrl+R) first.</source>
        <translation>没有就绪的工作节点：请先在集群面板中租用本地工作节点（Ctrl+R）。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Plan on the live cluster</source>
        <translation>在实时集群上规划</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Planning on the live cluster: %1 workers.</source>
        <translation>正在实时集群上规划：%1 个工作节点。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Save failed: %1</source>
        <translation>保存失败：%1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Saved the layout to %1.</source>
        <translation>已将布局保存到 %1。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Open failed: %1</source>
        <translation>打开失败：%1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>open %1</source>
        <translation>打开 %1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Opened %1.</source>
        <translation>已打开 %1。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Run the drawn layout as a job on the live cluster (%1)</source>
        <translation>在实时集群上将绘制的布局作为作业运行（%1）</translation>
    </message>
    <message>
        <location line="+8"/>
        <location line="+10"/>
        <source>Cannot launch: %1</source>
        <translation>无法启动：%1</translation>
    </message>
    <message>
        <location line="-6"/>
        <source>the drawn layout</source>
        <translation>绘制的布局</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>%1 over the drawn layout</source>
        <translation>在绘制的布局上运行 %1</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Cannot write the job spec &apos;%1&apos;: %2</source>
        <translation>无法写入作业规格“%1”：%2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Launching %1 (spec %2).</source>
        <translation>正在启动 %1（规格 %2）。</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Open layout</source>
        <translation>打开布局</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Layout files (*%1);;JSON (*.json)</source>
        <translation>布局文件 (*%1);;JSON (*.json)</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Layout files (*%1)</source>
        <translation>布局文件 (*%1)</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Import config.json</source>
        <translation>导入 config.json</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Hugging Face config (*.json)</source>
        <translation>Hugging Face 配置 (*.json)</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>%1 is in the model list already, as &apos;%2&apos;.</source>
        <translation>%1 已在模型列表中，名为“%2”。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Imported %1.</source>
        <translation>已导入 %1。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Assumed: %1</source>
        <translation>假定：%1</translation>
    </message>
    <message>
        <location filename="../app/designer/designerfile.cpp" line="+21"/>
        <source>start a new layout</source>
        <translation>新建布局</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>New layout.</source>
        <translation>新布局。</translation>
    </message>
    <message>
        <location filename="../app/designer/designerpanel.cpp" line="+62"/>
        <source>e.g. 4x8 h100-sxm @ 23.92/h</source>
        <translation>例如 4x8 h100-sxm @ 23.92/h</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Hypothetical machines: nodes × devices and a device kind (cpu, a100-40, a100-80, h100-sxm, h100-pcie, h200, b200, gb200, mi300x, l40s, rtx4090), optionally a price per node-hour (&quot;@ 23.92/h&quot;); press Enter</source>
        <translation>假设的机器：节点 × 设备及设备类型（cpu、a100-40、a100-80、h100-sxm、h100-pcie、h200、b200、gb200、mi300x、l40s、rtx4090），可选每节点小时价格（&quot;@ 23.92/h&quot;）；按回车</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>M&amp;odel:</source>
        <translation>模型(&amp;O)：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Mac&amp;hines:</source>
        <translation>机器(&amp;H)：</translation>
    </message>
    <message>
        <location line="+93"/>
        <source>Drag a layer, or a Shift-selected range, onto a device to make it that device&apos;s pipeline stage</source>
        <translation>把一个层或按住 Shift 选中的一段层拖到设备上，使其成为该设备的流水线阶段</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Assign</source>
        <translation>分配</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Layers:</source>
        <translation>层(&amp;L)：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>De&amp;vice:</source>
        <translation>设备(&amp;V)：</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>O&amp;utline:</source>
        <translation>大纲(&amp;U)：</translation>
    </message>
    <message>
        <location line="+87"/>
        <source>Zoom in</source>
        <translation>放大</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Enlarge the machines (also Ctrl+wheel)</source>
        <translation>放大机器（也可用 Ctrl+滚轮）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Zoom out</source>
        <translation>缩小</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Shrink the machines (also Ctrl+wheel)</source>
        <translation>缩小机器（也可用 Ctrl+滚轮）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fit</source>
        <translation>适应窗口</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Ctrl+0</source>
        <translation>Ctrl+0</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Arrange and zoom the machines to fill the view</source>
        <translation>排列并缩放机器以填满视图</translation>
    </message>
    <message>
        <location line="+68"/>
        <source>No machines: type some (e.g. 4x8 h100-sxm) or use the live cluster.</source>
        <translation>没有机器：请输入一些（例如 4x8 h100-sxm），或使用实时集群。</translation>
    </message>
    <message>
        <location line="+43"/>
        <source>Pipeline schedule: %1, stages: %2, micro-batches: %3</source>
        <translation>流水线调度：%1，阶段：%2，微批次：%3</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>%1 on device %2: release to drop, Esc to cancel</source>
        <translation>%1 位于设备 %2 上方：松开即放下，按 Esc 取消</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Assign layer %1 to %2</source>
        <translation>将第 %1 层分配到 %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Assign layers %1–%2 to %3</source>
        <translation>将第 %1–%2 层分配到 %3</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Select layers in the list first (Shift+arrows select a range).</source>
        <translation>请先在列表中选择层（Shift+方向键可选择一段）。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Pick a device to assign the layers to.</source>
        <translation>请选择要分配这些层的设备。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Tensor-parallel width (all stages)</source>
        <translation>张量并行宽度（所有阶段）</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Set TP to %1</source>
        <translation>将 TP 设为 %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+6"/>
        <source>Remove stage %1</source>
        <translation>删除阶段 %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Assign selected layers here</source>
        <translation>将所选层分配到此处</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>%1 (idle)</source>
        <translation>%1（空闲）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 · stage %2</source>
        <translation>%1 · 阶段 %2</translation>
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
</context>
<context>
    <name>tessera::designer::DeviceItem</name>
    <message>
        <location filename="../app/designer/deviceitem.cpp" line="+27"/>
        <source>Drop layers here to make them this device&apos;s pipeline stage; right-click for the stage&apos;s menu.</source>
        <translation>把层拖放到这里，使其成为此设备的流水线阶段；右键单击打开阶段菜单。</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Device #%1: idle. Drop layers here to start a stage on it.</source>
        <translation>设备 #%1：空闲。把层拖放到这里即可在其上新建一个阶段。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Device #%1: rank %2, pipeline stage %3 (%4), TP rank %5, DP replica %6. Drop layers here to make them this stage&apos;s; right-click for the stage&apos;s menu.</source>
        <translation>设备 #%1：rank %2，流水线阶段 %3（%4），TP rank %5，DP 副本 %6。把层拖放到这里即可归入此阶段；右键单击打开阶段菜单。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>layer %1</source>
        <translation>第 %1 层</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>layers %1–%2</source>
        <translation>第 %1–%2 层</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>It holds expert %1 of each MoE layer (EP rank %2).</source>
        <translation>它持有每个 MoE 层的专家 %1（EP rank %2）。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>It holds experts %1–%2 of each MoE layer (EP rank %3).</source>
        <translation>它持有每个 MoE 层的专家 %1–%2（EP rank %3）。</translation>
    </message>
    <message>
        <location line="+15"/>
        <source> · E%1</source>
        <translation> · E%1</translation>
    </message>
    <message>
        <location line="+64"/>
        <source>#%1 idle</source>
        <translation>#%1 空闲</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>#%1 · rank %2</source>
        <translation>#%1 · rank %2</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>past the world size</source>
        <translation>超出总进程数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>stage %1 · TP %2 · DP %3</source>
        <translation>阶段 %1 · TP %2 · DP %3</translation>
    </message>
    <message>
        <location line="-75"/>
        <source> · E%1–%2</source>
        <translation> · E%1–%2</translation>
    </message>
    <message>
        <location line="+82"/>
        <source>no estimate</source>
        <translation>无估算</translation>
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
        <translation>此布局为交错调度（每个阶段 %1 个模型块）：请选择 1F1B 调度后再手动重画阶段，或让自动规划放置这些模型块。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>interleaved</source>
        <translation>交错</translation>
    </message>
    <message>
        <location line="-297"/>
        <source>layer %1</source>
        <translation>第 %1 层</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>layers %1–%2</source>
        <translation>第 %1–%2 层</translation>
    </message>
    <message>
        <location line="+86"/>
        <source>%1 would be in no stage: a stage of their own needs %2 idle devices (DP %3 × TP %4) and %5 are idle. Drop a range that ends where a stage ends, lower DP or TP, or add machines.</source>
        <translation>%1 将不属于任何阶段：单独成为一个阶段需要 %2 个空闲设备（DP %3 × TP %4），而只有 %5 个空闲。请拖放一段在阶段边界结束的层、降低 DP 或 TP，或增加机器。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>✕ not enough idle devices (%1 short)</source>
        <translation>✕ 空闲设备不足（缺 %1 个）</translation>
    </message>
    <message>
        <location line="+177"/>
        <source>Choose a model and a device to drop on first.</source>
        <translation>请先选择模型和要拖放到的设备。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>no model</source>
        <translation>无模型</translation>
    </message>
    <message>
        <location line="+44"/>
        <source>A new stage for %1 needs %2 idle devices (DP %3 × TP %4): this one and %5 more are idle. Drop on a device of a stage, lower DP or TP, or add machines.</source>
        <translation>为 %1 新建阶段需要 %2 个空闲设备（DP %3 × TP %4）：只有这一个和另外 %5 个空闲。请拖放到某个阶段的设备上、降低 DP 或 TP，或增加机器。</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>→ stage %1 · %2</source>
        <translation>→ 阶段 %1 · %2</translation>
    </message>
    <message>
        <location line="+67"/>
        <source>The layout needs %1 ranks but the workers have %2 devices: lower DP, TP or the stages, or rent more workers</source>
        <translation>该布局需要 %1 个 rank，但工作节点只有 %2 个设备：请降低 DP、TP 或阶段数，或租用更多工作节点</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Worker %1 runs ranks %2 and %3 but not rank %4 between them: Open MPI starts a worker&apos;s ranks as one block. Draw a worker&apos;s devices as consecutive ranks (rank = (DP replica × stages + stage) × TP + TP rank), e.g. a TP group or a whole stage per worker</source>
        <translation>工作节点 %1 运行 rank %2 和 %3，但不运行两者之间的 rank %4：Open MPI 将一个工作节点的 rank 作为连续的一段启动。请把一个工作节点的设备画成连续的 rank（rank = (DP 副本 × 阶段数 + 阶段) × TP + TP rank），例如每个工作节点一个 TP 组或一个完整阶段</translation>
    </message>
</context>
<context>
    <name>tessera::designer::EstimatePanel</name>
    <message>
        <location filename="../app/designer/estimatepanel.cpp" line="+40"/>
        <source>Step time:</source>
        <translation>每步时间：</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Split:</source>
        <translation>构成：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Bubble:</source>
        <translation>气泡：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Throughput:</source>
        <translation>吞吐量：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>MFU:</source>
        <translation>MFU：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cost:</source>
        <translation>费用：</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Memory per device:</source>
        <translation>每设备内存：</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Problems:</source>
        <translation>问题(&amp;P)：</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>No estimate yet.</source>
        <translation>尚无估算。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>&lt;b&gt;Preview&lt;/b&gt;: what the layout would be if dropped here.</source>
        <translation>&lt;b&gt;预览&lt;/b&gt;：如果拖放到这里，布局将会是这样。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>compute %1 · TP %2 · PP %3 · DP %4 · bubble %5 · optimizer + loss %6</source>
        <translation>计算 %1 · TP %2 · PP %3 · DP %4 · 气泡 %5 · 优化器 + 损失 %6</translation>
    </message>
    <message>
        <location line="+7"/>
        <source> · EP all-to-all %1</source>
        <translation> · EP all-to-all %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source> · CP ring %1</source>
        <translation> · CP 环形 %1</translation>
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
        <translation>%1 样本/秒</translation>
    </message>
    <message>
        <location line="+2"/>
        <source> · %1 tokens/s</source>
        <translation> · %1 token/秒</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1/h · %2/step</source>
        <translation>%1/小时 · %2/步</translation>
    </message>
    <message>
        <location line="+2"/>
        <source> · %1/epoch</source>
        <translation> · %1/轮</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>unknown (no prices for these machines)</source>
        <translation>未知（这些机器没有价格）</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>No problems: the layout can run.</source>
        <translation>没有问题：该布局可以运行。</translation>
    </message>
</context>
<context>
    <name>tessera::designer::ExportDialog</name>
    <message>
        <location filename="../app/designer/exportdialog.cpp" line="+42"/>
        <source>&amp;Copy</source>
        <translation>复制(&amp;C)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>&amp;Save…</source>
        <translation>保存(&amp;S)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Export layout</source>
        <translation>导出布局</translation>
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
        <translation>不在 ds_config.json 中（需在你的代码中设置）：</translation>
    </message>
    <message>
        <location line="+40"/>
        <source>%1 cannot express this layout:</source>
        <translation>%1 无法表达此布局：</translation>
    </message>
    <message>
        <location line="+62"/>
        <source>Copied the %1 text.</source>
        <translation>已复制 %1 文本。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Save the %1 export</source>
        <translation>保存 %1 导出内容</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Nothing to save: %1 cannot express this layout.</source>
        <translation>没有可保存的内容：%1 无法表达此布局。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Saving %1…</source>
        <translation>正在保存 %1…</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Saved %1.</source>
        <translation>已保存 %1。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Cannot write &apos;%1&apos;: %2</source>
        <translation>无法写入“%1”：%2</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>write failed</source>
        <translation>写入失败</translation>
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
        <translation>不属于任何阶段（把它拖到设备上）</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>stage %1</source>
        <translation>阶段 %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 (%2): %3 parameters, %4 FLOP forward and %5 of activations per sample; %6</source>
        <translation>%1（%2）：%3 个参数，每个样本前向 %4 FLOP、激活 %5；%6</translation>
    </message>
    <message>
        <location line="+40"/>
        <source>layers %1–%2</source>
        <translation>第 %1–%2 层</translation>
    </message>
</context>
<context>
    <name>tessera::designer::LayerPaletteView</name>
    <message>
        <location filename="../app/designer/layerpaletteview.cpp" line="+21"/>
        <source>layer %1</source>
        <translation>第 %1 层</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>layers %1–%2</source>
        <translation>第 %1–%2 层</translation>
    </message>
</context>
<context>
    <name>tessera::designer::LayoutControls</name>
    <message>
        <location filename="../app/designer/layoutcontrols.cpp" line="+43"/>
        <source>Interl.</source>
        <translation>交错</translation>
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
        <translation>DP(&amp;D)：</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Data-parallel degree: replicas of the whole pipeline</source>
        <translation>数据并行度：整个流水线的副本数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;TP:</source>
        <translation>TP(&amp;T)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tensor-parallel width of every stage (the engine runs one TP group size)</source>
        <translation>每个阶段的张量并行宽度（引擎只运行一种 TP 组大小）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Micro-batches:</source>
        <translation>微批次(&amp;M)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Micro-batches per step; more shrink the pipeline bubble (p−1)/(m+p−1)</source>
        <translation>每步的微批次数；越多流水线气泡 (p−1)/(m+p−1) 越小</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Micro-batch size: samples (sequences) per micro-batch on each data-parallel rank, global batch / (DP × micro-batches); red when it is not whole</source>
        <translation>微批大小：每个数据并行 rank 上每个微批的样本（序列）数，全局批 /（DP × 微批数）；不是整数时显示为红色</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Sc&amp;hed.:</source>
        <translation>调度(&amp;H)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Pipeline schedule: 1F1B keeps at most PP micro-batches in flight, GPipe all of them; ZB-H1 splits the backward and fills the bubble with weight gradients (Qi et al. 2024); Interl. (interleaved 1F1B) cuts the layers into 2 model chunks per stage, which shrinks the bubble to (p−1)/(2m) (Narayanan et al. 2021)</source>
        <translation>流水线调度：1F1B 同时最多保留 PP 个微批次，GPipe 保留全部；ZB-H1 拆分反向传播并用权重梯度填充气泡（Qi 等，2024）；交错（交错 1F1B）把各层切成每阶段 2 个模型块，使气泡缩小到 (p−1)/(2m)（Narayanan 等，2021）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;ZeRO:</source>
        <translation>ZeRO(&amp;Z)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>ZeRO stage: 1 shards optimizer state, 2 also gradients, 3 also weights across DP</source>
        <translation>ZeRO 阶段：1 在 DP 间切分优化器状态，2 还切分梯度，3 还切分权重</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Batch:</source>
        <translation>批大小(&amp;B)：</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Global batch: samples per optimizer step</source>
        <translation>全局批大小：每个优化器步的样本数</translation>
    </message>
    <message>
        <location line="+46"/>
        <source>×%1</source>
        <translation>×%1</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Set DP to %1</source>
        <translation>将 DP 设为 %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Set TP to %1</source>
        <translation>将 TP 设为 %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Set micro-batches to %1</source>
        <translation>将微批次设为 %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Set schedule to %1</source>
        <translation>将调度设为 %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Set ZeRO stage to %1</source>
        <translation>将 ZeRO 阶段设为 %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Set global batch to %1</source>
        <translation>将全局批大小设为 %1</translation>
    </message>
</context>
<context>
    <name>tessera::designer::LayoutExport</name>
    <message>
        <location filename="../backend/export/exportplan.cpp" line="+349"/>
        <source>no model chosen: pick one from the Model list or import a config.json</source>
        <translation>未选择模型：请从模型列表中选择一个，或导入 config.json</translation>
    </message>
    <message>
        <location line="-100"/>
        <source>stage %1 holds layers %2-%3, but the stages must cover the model&apos;s %4 layers in order: stage %1 has to start at layer %5</source>
        <translation>阶段 %1 包含第 %2-%3 层，但各阶段必须按顺序覆盖模型的 %4 层：阶段 %1 必须从第 %5 层开始</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>the stages end at layer %1 but the model has %2 layers (0-%3): give the last stage the rest</source>
        <translation>各阶段止于第 %1 层，但模型有 %2 层（0-%3）：请把剩余的层分给最后一个阶段</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>the global batch %1 is not divisible by DP %2 x %3 micro-batches = %4: a micro-batch would hold %5 samples; make the batch a multiple of %4 (e.g. %6) or change DP or the micro-batches</source>
        <translation>全局批大小 %1 不能被 DP %2 × %3 个微批次 = %4 整除：每个微批次将包含 %5 个样本；请把批大小设为 %4 的倍数（例如 %6），或修改 DP 或微批次数</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>ZeRO stage %1 is not 0, 1, 2 or 3</source>
        <translation>ZeRO 阶段 %1 不是 0、1、2 或 3</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 virtual stages need the interleaved schedule and a multiple of %1 model chunks over at least 2 pipeline stages; the layout has %2 chunks</source>
        <translation>%1 个虚拟阶段需要交错调度，并且需要在至少 2 个流水线阶段上有 %1 的倍数个模型块；该布局有 %2 个块</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>recompute &apos;%1&apos; is not none, selective or full</source>
        <translation>重计算“%1”不是 none、selective 或 full</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>precision &apos;%1&apos; is not fp32, tf32, bf16 or fp8</source>
        <translation>精度 &apos;%1&apos; 不是 fp32、tf32、bf16 或 fp8</translation>
    </message>
    <message>
        <location line="+73"/>
        <source>the DeepSeek config has %1, which Megatron-LM&apos;s and torchtitan&apos;s DeepSeek models do not build (no biases; softmax or sigmoid scores; greedy, group_limited_greedy or noaux_tc routing)</source>
        <translation>DeepSeek 配置中有 %1，Megatron-LM 和 torchtitan 的 DeepSeek 模型不支持（无偏置；softmax 或 sigmoid 打分；greedy、group_limited_greedy 或 noaux_tc 路由）</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>expert parallel %1 needs a mixture-of-experts model; %2 has no routed experts: set EP to 1</source>
        <translation>专家并行 %1 需要混合专家模型；%2 没有路由专家：请将 EP 设为 1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>expert parallel %1 must divide the %2 experts and DP %3 x CP %4</source>
        <translation>专家并行 %1 必须整除 %2 个专家以及 DP %3 x CP %4</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>WARNING: the planner says this layout cannot run on the planned machines; the job would fail as drawn:</source>
        <translation>警告：规划器认为此布局无法在所规划的机器上运行；按此绘制作业会失败：</translation>
    </message>
    <message>
        <location line="-110"/>
        <source>optimizer &apos;%1&apos; is not sgd or adamw</source>
        <translation>优化器“%1”不是 sgd 或 adamw</translation>
    </message>
    <message>
        <location filename="../backend/export/megatronexport.cpp" line="+257"/>
        <source>Megatron-LM&apos;s pretrain_gpt.py trains decoder language models; model family &apos;%1&apos; has no Megatron-LM arguments (pick a GPT, GPT-2, LLaMA, Mistral, Mixtral, Qwen2, Qwen3, Qwen2-MoE, Qwen3-MoE, Phi-3, DeepSeek-V2 or DeepSeek-V3 model)</source>
        <translation>Megatron-LM 的 pretrain_gpt.py 训练的是解码器语言模型；模型族“%1”没有对应的 Megatron-LM 参数（请选择 GPT、GPT-2、LLaMA、Mistral、Mixtral、Qwen2、Qwen3、Qwen2-MoE、Qwen3-MoE、Phi-3、DeepSeek-V2 或 DeepSeek-V3 模型）</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>TP %1 does not divide the model&apos;s %2 attention heads: Megatron-LM needs them to be a multiple of --tensor-model-parallel-size</source>
        <translation>TP %1 不能整除模型的 %2 个注意力头：Megatron-LM 要求其数量是 --tensor-model-parallel-size 的倍数</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>TP %1 does not divide the model&apos;s %2 key/value heads (query groups): Megatron-LM needs them to be a multiple of --tensor-model-parallel-size</source>
        <translation>TP %1 不能整除模型的 %2 个键/值头（查询组）：Megatron-LM 要求其数量是 --tensor-model-parallel-size 的倍数</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>TP %1 does not divide the model&apos;s %2 MLP width (--ffn-hidden-size): Megatron-LM needs them to be a multiple of --tensor-model-parallel-size</source>
        <translation>TP %1 不能整除模型的 MLP 宽度 %2（--ffn-hidden-size）：Megatron-LM 要求它是 --tensor-model-parallel-size 的倍数</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>the model&apos;s blocks use sliding windows of %1 and %2 tokens: Megatron-LM has one --window-size for all</source>
        <translation>模型的各块使用 %1 和 %2 个 token 的滑动窗口：Megatron-LM 对所有块只有一个 --window-size</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>stage %1 holds the multi-token-prediction module without the head: Megatron-LM builds it before the loss, on the head&apos;s stage or earlier (--pipeline-model-parallel-layout puts m before L), so this split has no Megatron-LM arguments; move it to the head&apos;s stage</source>
        <translation>第 %1 级只有多 token 预测模块而没有输出头：Megatron-LM 在损失之前构建它，位于输出头所在的级或更早的级（--pipeline-model-parallel-layout 中 m 在 L 之前），因此这种划分没有对应的 Megatron-LM 参数；请把它移到输出头所在的级</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>stage %1 ends with ln_f and stage %2 holds the head alone: Megatron-LM builds the final norm on the stage of the output layer (megatron/core/transformer/transformer_block.py: final_layernorm only where post_process), so this split has no Megatron-LM arguments; move ln_f to the head&apos;s stage</source>
        <translation>阶段 %1 以 ln_f 结尾，而阶段 %2 只有输出头：Megatron-LM 把最终归一化层放在输出层所在的阶段（megatron/core/transformer/transformer_block.py：final_layernorm 仅在 post_process 时构建），因此这种切分没有对应的 Megatron-LM 参数；请把 ln_f 移到输出头所在的阶段</translation>
    </message>
    <message>
        <location filename="../backend/export/deepspeedexport.cpp" line="+28"/>
        <source>DeepSpeed&apos;s pipeline engine refuses ZeRO-%1 with %2 pipeline stages (deepspeed/runtime/pipe/engine.py: &quot;ZeRO-2 and ZeRO-3 are incompatible with pipeline parallelism&quot;): use ZeRO 0 or 1, or one stage</source>
        <translation>DeepSpeed 的流水线引擎不接受 ZeRO-%1 与 %2 个流水线阶段同时使用（deepspeed/runtime/pipe/engine.py：&quot;ZeRO-2 and ZeRO-3 are incompatible with pipeline parallelism&quot;）：请使用 ZeRO 0 或 1，或只用一个阶段</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>DeepSpeed has no ring context parallelism: its sequence parallelism is Ulysses (an all-to-all of attention heads, docs/_tutorials/ds-sequence.md), which the planner does not model; set CP to 1 to export CP %1 layouts</source>
        <translation>DeepSpeed 没有环形上下文并行：它的序列并行是 Ulysses（注意力头的 all-to-all，docs/_tutorials/ds-sequence.md），规划器不对其建模；要导出 CP %1 的布局，请将 CP 设为 1</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>DeepSpeed&apos;s pipeline engine runs one contiguous stage per rank (deepspeed/runtime/pipe/module.py): it has no interleaved schedule for %1 model chunks per stage; choose 1F1B</source>
        <translation>DeepSpeed 的流水线引擎每个 rank 运行一个连续阶段（deepspeed/runtime/pipe/module.py）：它没有每阶段 %1 个模型块的交错调度；请选择 1F1B</translation>
    </message>
    <message>
        <location line="+90"/>
        <source>Keys: deepspeedai/DeepSpeed docs/_pages/config-json.md (https://www.deepspeed.ai/docs/config-json/); %1 ranks = DP %2 x PP %3 x TP %4.</source>
        <translation>键名出处：deepspeedai/DeepSpeed docs/_pages/config-json.md（https://www.deepspeed.ai/docs/config-json/）；%1 个 rank = DP %2 × PP %3 × TP %4。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Expert parallelism is the model&apos;s own: deepspeed.moe.layer.MoE(..., num_experts=%1, ep_size=%2, k=%3) in each MoE layer (deepspeed/moe/layer.py); config-json.md has no key for it.</source>
        <translation>专家并行由模型自身实现：在每个 MoE 层中使用 deepspeed.moe.layer.MoE(..., num_experts=%1, ep_size=%2, k=%3)（deepspeed/moe/layer.py）；config-json.md 中没有对应的键。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>train_batch_size is left for DeepSpeed to infer (config-json.md &quot;Batch Size Related Parameters&quot;): without an mpu its batch arithmetic counts all %1 ranks although the %2 TP ranks of a group share each micro-batch (deepspeed/runtime/config.py world_size); the drawn global batch is %3 = %4 x %5 x DP %6.</source>
        <translation>train_batch_size 留给 DeepSpeed 自行推断（config-json.md &quot;Batch Size Related Parameters&quot;）：没有 mpu 时，它的批大小计算会把全部 %1 个 rank 都算进去，尽管同一组的 %2 个 TP rank 共享每个微批次（deepspeed/runtime/config.py world_size）；绘制的全局批大小为 %3 = %4 × %5 × DP %6。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>train_batch_size %1 = train_micro_batch_size_per_gpu %2 x gradient_accumulation_steps %3 x %4 data-parallel ranks (deepspeed/runtime/config.py _batch_assertion; with pipeline stages DeepSpeed counts data-parallel ranks only).</source>
        <translation>train_batch_size %1 = train_micro_batch_size_per_gpu %2 × gradient_accumulation_steps %3 × %4 个数据并行 rank（deepspeed/runtime/config.py _batch_assertion；有流水线阶段时 DeepSpeed 只统计数据并行 rank）。</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Pipeline: config-json.md has no pipeline section; the %1 stages are PipelineModule(layers=..., num_stages=%2, partition_method=...) in code (docs/_tutorials/pipeline.md, deepspeed/runtime/pipe/module.py), its micro-batches are gradient_accumulation_steps.</source>
        <translation>流水线：config-json.md 没有流水线部分；这 %1 个阶段需在代码中用 PipelineModule(layers=..., num_stages=%2, partition_method=...) 定义（docs/_tutorials/pipeline.md、deepspeed/runtime/pipe/module.py），其微批次数即 gradient_accumulation_steps。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>With the model&apos;s %1 layers as the PipelineModule&apos;s layers, partition_method=&quot;uniform&quot; gives the drawn split (%2 layers per stage).</source>
        <translation>以模型的 %1 层作为 PipelineModule 的层时，partition_method=&quot;uniform&quot; 正好得到绘制的切分（每个阶段 %2 层）。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>NOT EXPRESSIBLE by partition_method: the drawn split has %1 layers per stage, &quot;uniform&quot; gives %2 (deepspeed/runtime/utils.py partition_uniform) and &quot;parameters&quot; / &quot;type:[regex]&quot; balance weights instead; set the boundaries in your own PipelineModule code.</source>
        <translation>无法用 partition_method 表达：绘制的切分为每个阶段 %1 层，&quot;uniform&quot; 得到的是 %2（deepspeed/runtime/utils.py partition_uniform），而 &quot;parameters&quot; / &quot;type:[regex]&quot; 按权重均衡；请在你自己的 PipelineModule 代码中设置阶段边界。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Schedule: DeepSpeed&apos;s TrainSchedule (deepspeed/runtime/pipe/schedule.py) runs the micro-batches; the drawn %1 order has no key.</source>
        <translation>调度：微批次由 DeepSpeed 的 TrainSchedule（deepspeed/runtime/pipe/schedule.py）执行；绘制的 %1 顺序没有对应的键。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Tensor parallelism with pipeline stages is the model&apos;s own (PipelineModule(topology=PipeModelDataParallelTopology(num_pp=%1, num_mp=%2, num_dp=%3)), deepspeed/runtime/pipe/topology.py); AutoTP (tensor_parallel.autotp_size) is documented without pipeline stages, so the JSON leaves it out.</source>
        <translation>带流水线阶段时，张量并行由模型自己实现（PipelineModule(topology=PipeModelDataParallelTopology(num_pp=%1, num_mp=%2, num_dp=%3))，deepspeed/runtime/pipe/topology.py）；AutoTP（tensor_parallel.autotp_size）的文档只涉及无流水线阶段的情况，因此 JSON 中不包含它。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Rank order: DeepSpeed&apos;s topology axes are pipe, data, model (stage outermost), Tessera&apos;s are data, stage, TP: the same degrees, other ranks per stage.</source>
        <translation>rank 顺序：DeepSpeed 的拓扑轴依次为 pipe、data、model（阶段在最外层），Tessera 的为数据、阶段、TP：并行度相同，但每个阶段上的 rank 不同。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>tensor_parallel.autotp_size %1: AutoTP shards the Hugging Face model&apos;s linear layers (config-json.md &quot;Tensor Parallel (AutoTP)&quot;, docs/_tutorials/autotp-training.md).</source>
        <translation>tensor_parallel.autotp_size %1：AutoTP 切分 Hugging Face 模型的线性层（config-json.md &quot;Tensor Parallel (AutoTP)&quot;，docs/_tutorials/autotp-training.md）。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>ZeRO-3 with AutoTP: config-json.md lists ZeRO stages 0-3 for AutoTP, the AutoTP training tutorial names stages 0-2 (check your DeepSpeed version).</source>
        <translation>ZeRO-3 与 AutoTP：config-json.md 列出 AutoTP 支持 ZeRO 阶段 0-3，而 AutoTP 训练教程只提到阶段 0-2（请核对你的 DeepSpeed 版本）。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Sequence parallelism (Megatron-style, inside TP) has no DeepSpeed key; sequence_parallel_size is DeepSpeed-Ulysses, another split, and is not set.</source>
        <translation>序列并行（Megatron 风格，位于 TP 内部）没有对应的 DeepSpeed 键；sequence_parallel_size 属于 DeepSpeed-Ulysses，是另一种切分方式，此处不设置。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Recompute (selective) is in the model code: deepspeed.checkpointing.checkpoint or PipelineModule(activation_checkpoint_interval=1); the activation_checkpointing section only tunes it.</source>
        <translation>选择性重计算（selective）需在模型代码中实现：deepspeed.checkpointing.checkpoint 或 PipelineModule(activation_checkpoint_interval=1)；activation_checkpointing 部分只用于调优。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Recompute (full) is in the model code: deepspeed.checkpointing.checkpoint or PipelineModule(activation_checkpoint_interval=1); the activation_checkpointing section only tunes it.</source>
        <translation>完全重计算（full）需在模型代码中实现：deepspeed.checkpointing.checkpoint 或 PipelineModule(activation_checkpoint_interval=1)；activation_checkpointing 部分只用于调优。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Precision tf32: no DeepSpeed key; without bf16/fp16 sections it trains in fp32.</source>
        <translation>精度 tf32：没有对应的 DeepSpeed 键；没有 bf16/fp16 部分时按 fp32 训练。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Precision fp32: DeepSpeed&apos;s default (no bf16/fp16 section).</source>
        <translation>精度 fp32：DeepSpeed 的默认值（无 bf16/fp16 部分）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Precision fp8: ds_config.json has no FP8 key; bf16 is enabled and the FP8 GEMMs come from your model code (NVIDIA Transformer Engine&apos;s fp8_autocast around the layers).</source>
        <translation>精度 fp8：ds_config.json 没有 FP8 键；已启用 bf16，FP8 GEMM 由您的模型代码提供（在各层外使用 NVIDIA Transformer Engine 的 fp8_autocast）。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>optimizer.params (lr, betas, weight_decay) are not part of the layout: add them.</source>
        <translation>optimizer.params（lr、betas、weight_decay）不属于布局：请自行添加。</translation>
    </message>
    <message>
        <location filename="../backend/export/torchtitanexport.cpp" line="+31"/>
        <source>torchtitan runs plain data parallelism (DDP, ZeRO 0) only when it is the sole parallelism (torchtitan/models/llama3/infra/parallelize.py: &quot;DDP has not supported &gt; 1D parallelism&quot;); with TP or pipeline stages its data parallelism is FSDP: set ZeRO to 1, 2 or 3 to export DP %1</source>
        <translation>torchtitan 只在纯数据并行（DDP，ZeRO 0）是唯一的并行方式时才使用它（torchtitan/models/llama3/infra/parallelize.py：&quot;DDP has not supported &gt; 1D parallelism&quot;）；有 TP 或流水线阶段时，其数据并行为 FSDP：请将 ZeRO 设为 1、2 或 3 以导出 DP %1</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>torchtitan names pipeline stages by its decoder modules (tok_embeddings, layers.N, norm, output); model family &apos;%1&apos; has no such names: export it with one stage</source>
        <translation>torchtitan 按解码器模块（tok_embeddings、layers.N、norm、output）命名流水线阶段；模型族“%1”没有这些名称：请只用一个阶段导出</translation>
    </message>
</context>
<context>
    <name>tessera::designer::LayoutOutline</name>
    <message>
        <location filename="../app/designer/layoutoutline.cpp" line="+23"/>
        <source>Stage / replica / rank</source>
        <translation>阶段 / 副本 / rank</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Layers / device</source>
        <translation>层 / 设备</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The layout as an outline: F2 on a stage edits its layers (e.g. 3-5), F2 on a rank types its device&apos;s number, Delete removes a stage</source>
        <translation>以大纲形式显示布局：在阶段上按 F2 编辑其层（例如 3-5），在 rank 上按 F2 输入其设备编号，按 Delete 删除阶段</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>Stage %1</source>
        <translation>阶段 %1</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>DP replica %1</source>
        <translation>DP 副本 %1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>TP %1 · rank %2</source>
        <translation>TP %1 · rank %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>no device</source>
        <translation>无设备</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Stage %1: &apos;%2&apos; is not a layer range; write it as 3-5</source>
        <translation>阶段 %1：“%2”不是层范围；请写成 3-5 的形式</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>There is no stage %1.</source>
        <translation>不存在阶段 %1。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Stage %1: the model has layers 0-%2.</source>
        <translation>阶段 %1：模型的层为 0-%2。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Stage %1 holds layers %2</source>
        <translation>阶段 %1 包含第 %2 层</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Rank %1: device %2 is not one of the %3 devices (0-%4).</source>
        <translation>Rank %1：设备 %2 不在这 %3 个设备（0-%4）之中。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Run rank %1 on device %2</source>
        <translation>在设备 %2 上运行 rank %1</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Remove stage %1</source>
        <translation>删除阶段 %1</translation>
    </message>
</context>
<context>
    <name>tessera::designer::MemoryBars</name>
    <message>
        <location filename="../app/designer/memorybars.cpp" line="+54"/>
        <source>weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>grads</source>
        <translation>梯度</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>activations</source>
        <translation>激活</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>workspace</source>
        <translation>工作区</translation>
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
        <translation>%1（%2，内置）</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Cannot read &apos;%1&apos;: %2</source>
        <translation>无法读取“%1”：%2</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&apos;%1&apos; is larger than 1 MiB: not a config.json</source>
        <translation>“%1”大于 1 MiB：不是 config.json</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>&apos;%1&apos; cannot be planned: %2</source>
        <translation>无法规划 &apos;%1&apos;：%2</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 (config.json)</source>
        <translation>%1（config.json）</translation>
    </message>
</context>
<context>
    <name>tessera::designer::PlanDocument</name>
    <message>
        <location filename="../app/designer/plandocument.cpp" line="+109"/>
        <source>No model chosen: pick one from the Model list or import a config.json.</source>
        <translation>未选择模型：请从“模型”列表中选择，或导入 config.json。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The model cannot be planned: %1</source>
        <translation>无法规划该模型：%1</translation>
    </message>
</context>
<context>
    <name>tessera::designer::PlanIo</name>
    <message>
        <location filename="../backend/layout/planfile.cpp" line="+63"/>
        <source>cannot write &apos;%1&apos;: %2</source>
        <translation>无法写入“%1”：%2</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>layout file &apos;%1&apos; does not exist</source>
        <translation>布局文件“%1”不存在</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>cannot read &apos;%1&apos;: %2</source>
        <translation>无法读取“%1”：%2</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&apos;%1&apos; is larger than 16 MiB: not a layout file</source>
        <translation>“%1”大于 16 MiB：不是布局文件</translation>
    </message>
    <message>
        <location filename="../app/designer/planio.cpp" line="+83"/>
        <source>Imported config.json models are for planning only: tessera-train runs the built-in MLP, ViT and GPT. Pick a built-in model to launch.</source>
        <translation>导入的 config.json 模型仅用于规划：tessera-train 只运行内置的 MLP、ViT 和 GPT。请选择一个内置模型来启动。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>No built-in model chosen.</source>
        <translation>未选择内置模型。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The engine runs ZeRO stage 0 or 1; set ZeRO to 0 or 1 to launch.</source>
        <translation>引擎只支持 ZeRO 阶段 0 或 1；请将 ZeRO 设为 0 或 1 后再启动。</translation>
    </message>
</context>
<context>
    <name>tessera::designer::ProgramLaunchDialog</name>
    <message>
        <location filename="../app/designer/programlaunchdialog.cpp" line="+27"/>
        <source>Launch with program</source>
        <translation>用程序启动</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Started on every rank (mpirun) or by torchrun on every node; a path on the workers or a name on their PATH</source>
        <translation>在每个 rank 上启动（mpirun），或由 torchrun 在每个节点上启动；填写工作节点上的路径或其 PATH 中的程序名</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>train.py --epochs 2   (quoted as in a shell, no $)</source>
        <translation>train.py --epochs 2   （按 shell 方式加引号，不支持 $）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>folder with the code, shipped to every node (optional)</source>
        <translation>代码所在文件夹，会分发到每个节点（可选）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>mpirun: one process per rank</source>
        <translation>mpirun：每个 rank 一个进程</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>torchrun: one agent per node</source>
        <translation>torchrun：每个节点一个代理</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&amp;Program:</source>
        <translation>程序(&amp;P)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Arguments:</source>
        <translation>参数(&amp;A)：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Working folder:</source>
        <translation>工作文件夹(&amp;W)：</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Launcher:</source>
        <translation>启动器(&amp;L)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The ranks get torchrun&apos;s variables (RANK, WORLD_SIZE, MASTER_ADDR, …) and the drawn layout in TESSERA_LAYOUT_FILE; they report metrics with the tessera module.</source>
        <translation>各 rank 会得到 torchrun 的环境变量（RANK、WORLD_SIZE、MASTER_ADDR 等），绘制的布局在 TESSERA_LAYOUT_FILE 中；它们用 tessera 模块报告指标。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Launch</source>
        <translation>启动</translation>
    </message>
    <message>
        <location line="+62"/>
        <source>Arguments: %1</source>
        <translation>参数：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Working folder &apos;%1&apos; does not exist on this computer.</source>
        <translation>工作文件夹“%1”在本机上不存在。</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Folder with the program&apos;s code</source>
        <translation>程序代码所在的文件夹</translation>
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
        <translation>模型默认</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>selective</source>
        <translation>选择性</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>full</source>
        <translation>完全</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>auto</source>
        <translation>自动</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>on</source>
        <translation>开</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>off</source>
        <translation>关</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Se&amp;q:</source>
        <translation>序列(&amp;Q)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Sequence length: tokens per sequence of an imported model (&quot;model&apos;s&quot;: its positions, at most 4096)</source>
        <translation>序列长度：导入模型每个序列的 token 数（&quot;模型默认&quot;：其位置数，最多 4096）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Pre&amp;c:</source>
        <translation>精度(&amp;C)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Precision: BF16 mixed precision keeps an FP32 master copy; FP8 runs the GEMMs in FP8 (Hopper, Ada, Blackwell, MI300) and keeps BF16 weights</source>
        <translation>精度：BF16 混合精度保留 FP32 主副本；FP8 以 FP8 运行 GEMM（Hopper、Ada、Blackwell、MI300）并保留 BF16 权重</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Reco&amp;mp:</source>
        <translation>重计算(&amp;M)：</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>F&amp;lash:</source>
        <translation>Flash(&amp;L)：</translation>
    </message>
    <message>
        <location line="-5"/>
        <source>Activation recompute (Korthikanti et al. 2022): selective re-runs attention, full the whole block, trading backward time for activation memory</source>
        <translation>激活重计算（Korthikanti 等 2022）：选择性重算注意力，完全重算整个块，以反向时间换取激活内存</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Sequence parallelism (SP): LayerNorm and dropout activations split over the TP group</source>
        <translation>序列并行（SP）：LayerNorm 和 dropout 激活在 TP 组内切分</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>FlashAttention keeps no sequence × sequence attention scores; auto: on for an imported model on GPUs</source>
        <translation>FlashAttention 不保存序列 × 序列的注意力分数；自动：GPU 上的导入模型开启</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>C&amp;P:</source>
        <translation>CP(&amp;P)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Context parallel (CP): each sequence split over this many ranks, attention by a ring exchange of keys and values; multiplies the ranks</source>
        <translation>上下文并行（CP）：每个序列拆分到这么多个 rank 上，注意力通过环形交换键和值完成；rank 数随之成倍增加</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;EP:</source>
        <translation>EP(&amp;E)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Expert parallel (EP): a mixture of experts&apos; routed experts split over this many of the DP × CP ranks, tokens sent to them by all-to-all; adds no ranks</source>
        <translation>专家并行（EP）：混合专家模型的路由专家拆分到这么多个 DP × CP rank 上，token 通过 all-to-all 发送给它们；不增加 rank</translation>
    </message>
    <message>
        <location line="+52"/>
        <source>Set sequence length to %1</source>
        <translation>将序列长度设为 %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Use the model&apos;s sequence length</source>
        <translation>使用模型的序列长度</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Set precision to %1</source>
        <translation>将精度设为 %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Set recompute to %1</source>
        <translation>将重计算设为 %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Turn sequence parallelism on</source>
        <translation>开启序列并行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Turn sequence parallelism off</source>
        <translation>关闭序列并行</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Set CP to %1</source>
        <translation>将 CP 设为 %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Set EP to %1</source>
        <translation>将 EP 设为 %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Set FlashAttention to %1</source>
        <translation>将 FlashAttention 设为 %1</translation>
    </message>
</context>
<context>
    <name>tessera::planner</name>
    <message>
        <location filename="../backend/planner/auto_plan.cpp" line="+30"/>
        <source>DP %1 × TP %2 × PP %3, %4 micro-batches</source>
        <translation>DP %1 × TP %2 × PP %3，%4 个微批次</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>, CP %1</source>
        <translation>，CP %1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>, EP %1</source>
        <translation>，EP %1</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>, interleaved 1F1B × %1 chunks</source>
        <translation>，交错 1F1B × %1 个块</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>, %1 recompute</source>
        <translation>，%1 重计算</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>, sequence parallel</source>
        <translation>，序列并行</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>compute %1 vs %2</source>
        <translation>计算 %1 对比 %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>TP all-reduce %1 vs %2</source>
        <translation>TP all-reduce %1 对比 %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>EP all-to-all %1 vs %2</source>
        <translation>EP all-to-all %1，对比 %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>CP ring exchange %1 vs %2</source>
        <translation>CP 环形交换 %1，对比 %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>pipeline send/recv %1 vs %2</source>
        <translation>流水线 send/recv %1 对比 %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>pipeline bubble %1 vs %2</source>
        <translation>流水线气泡 %1 对比 %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>DP all-reduce exposed %1 vs %2</source>
        <translation>DP all-reduce 暴露部分 %1 对比 %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>optimizer step %1 vs %2</source>
        <translation>优化器步 %1 对比 %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>loss all-reduce %1 vs %2</source>
        <translation>损失 all-reduce %1 对比 %2</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>step %1 vs %2</source>
        <translation>每步 %1 对比 %2</translation>
    </message>
    <message>
        <location line="+145"/>
        <source>fastest that fits: %1; %2 per step, bubble %3 %, MFU %4 %</source>
        <translation>能放下的最快方案：%1；每步 %2，气泡 %3 %，MFU %4 %</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>cheapest within the deadline: %1; %2 per step, bubble %3 %, MFU %4 %</source>
        <translation>截止时间内最便宜的方案：%1；每步 %2，气泡 %3 %，MFU %4 %</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>#%1 %2: ties with #1</source>
        <translation>#%1 %2：与 #1 持平</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>#%1 %2: +%3 % step time: %4</source>
        <translation>#%1 %2：每步时间 +%3 %：%4</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>#%1 %2: +%3 % cost: %4</source>
        <translation>#%1 %2：费用 +%3 %：%4</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>; %1 devices vs %2</source>
        <translation>；%1 个设备对比 %2 个</translation>
    </message>
    <message>
        <location filename="../backend/planner/estimate.cpp" line="+30"/>
        <source>layer %1: width %2 (heads or MLP width) is not divisible by TP %3; choose a TP that divides it</source>
        <translation>第 %1 层：宽度 %2（注意力头数或 MLP 宽度）不能被 TP %3 整除；请选择能整除它的 TP</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>global batch %1 is not divisible by data parallel %2</source>
        <translation>全局批大小 %1 不能被数据并行度 %2 整除</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>micro-batches %1 do not divide the %2 samples per data-parallel replica</source>
        <translation>微批次数 %1 不能整除每个数据并行副本的 %2 个样本</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>ZeRO stage %1 is not 0-3</source>
        <translation>ZeRO 阶段 %1 不在 0-3 之间</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>tessera-train runs ZeRO 0/1 without recompute or sequence parallelism; turn those off to launch this built-in model</source>
        <translation>tessera-train 只支持 ZeRO 0/1，且不支持重计算和序列并行；请关闭它们再启动此内置模型</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>data/tensor/context/expert parallel degrees must be at least 1</source>
        <translation>数据、张量、上下文和专家并行度至少为 1</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>tessera-train has no experts and no context parallelism; set EP and CP to 1 to launch this built-in model</source>
        <translation>tessera-train 没有专家，也没有上下文并行；要启动此内置模型，请将 EP 和 CP 设为 1</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>expert parallel %1 needs a mixture-of-experts model; this one has no routed experts: set EP to 1</source>
        <translation>专家并行 %1 需要混合专家模型；该模型没有路由专家：请将 EP 设为 1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>expert parallel %1 does not divide the %2 routed experts of each layer</source>
        <translation>专家并行 %1 不能整除每层的 %2 个路由专家</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>expert parallel %1 does not divide DP %2 × CP %3: its groups are made of those ranks</source>
        <translation>专家并行 %1 不能整除 DP %2 × CP %3：它的组由这些 rank 构成</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>context parallel %1 needs a sequence length divisible by 2 × %1 (the load-balanced causal split); %2 tokens is not</source>
        <translation>上下文并行 %1 需要序列长度能被 2 × %1 整除（负载均衡的因果切分）；%2 个 token 不满足</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>virtual stages need the interleaved 1F1B schedule</source>
        <translation>虚拟阶段需要交错 1F1B 调度</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 model chunks do not make %2 virtual stages on each of at least 2 pipeline ranks; use a multiple of %2 chunks</source>
        <translation>%1 个模型块无法在至少 2 个流水线 rank 上各组成 %2 个虚拟阶段；请使用 %2 的倍数个块</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>the interleaved schedule needs micro-batches (%1) that are a multiple of the %2 pipeline ranks</source>
        <translation>交错调度需要微批次数（%1）是 %2 个流水线 rank 的倍数</translation>
    </message>
    <message>
        <location line="+247"/>
        <source>the layout needs %1 ranks (DP %2 × PP %3 × CP %4 × TP %5) but the cluster has %6 devices</source>
        <translation>该布局需要 %1 个 rank（DP %2 × PP %3 × CP %4 × TP %5），但集群只有 %6 个设备</translation>
    </message>
    <message>
        <location filename="../backend/planner/estimate_memory.cpp" line="+137"/>
        <source>over memory: stage %1 on %2 device %3 (%4) needs %5 of %6 (%7 over); use ZeRO, more TP/PP, recompute or fewer micro-batches in flight</source>
        <translation>内存超限：阶段 %1 在 %2 设备 %3（%4）上需要 %5，可用 %6（超出 %7）；请使用 ZeRO、更大的 TP/PP、重计算，或减少在途微批次</translation>
    </message>
    <message>
        <location filename="../backend/planner/layer_cost.cpp" line="+329"/>
        <source>stage %1 is empty (layers %2..%3); give it at least one layer</source>
        <translation>阶段 %1 为空（第 %2..%3 层）；请至少给它分配一层</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>stage %1 ends outside the model&apos;s %2 layers (0..%3)</source>
        <translation>阶段 %1 的结尾超出了模型的 %2 层（0..%3）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>layer %1 is in no stage; extend stage %2 or %3 to cover it</source>
        <translation>第 %1 层不属于任何阶段；请扩展阶段 %2 或 %3 以覆盖它</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>layer %1 is in two stages (%2 and %3)</source>
        <translation>第 %1 层同时属于两个阶段（%2 和 %3）</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>layers %1..%2 are in no stage; extend the last stage to the end of the model</source>
        <translation>第 %1..%2 层不属于任何阶段；请将最后一个阶段扩展到模型末尾</translation>
    </message>
    <message>
        <location filename="../backend/planner/device_catalog.cpp" line="+109"/>
        <source>CPU rank slot</source>
        <translation>CPU rank 槽位</translation>
    </message>
</context>
</TS>
