// The layout export of each model family's own architecture (backend/export/): Mixtral's and
// Qwen-MoE's routing with EP, CP and virtual stages, DeepSeek-V2/V3's latent attention, router and
// multi-token prediction, sliding windows and Phi-3 — under Megatron-LM's and torchtitan's own
// names — and the families whose blocks the exporters cannot write, refused by name.
#include "backend/export/exportformats.h"
#include "tests/app/export/export_fixtures.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace tessera;
using namespace tessera::designer;
using namespace tessera::designer::test;

class TestLayoutExportFamilies : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void mixtureOfExpertsIsNotExportedAsADenseModel();
    void deepSeekExportsLatentAttentionAndItsRouter();
    void slidingWindowsAndPhi3();
};

/// Mixtral exports with its routing and the layout's EP, CP and virtual stages under
/// Megatron-LM's own flag names (megatron/training/arguments.py); a family whose blocks have more
/// than the exporters know (Gemma 2's post-norms, soft-capping and alternating sliding window) is
/// refused by its name rather than exported as something else.
void TestLayoutExportFamilies::mixtureOfExpertsIsNotExportedAsADenseModel() {
    // Mixtral-8x7B (32 blocks, layers 0-34): DP 4 x CP 2 x PP 2 (2 chunks each) x TP 2 = 32
    // ranks, EP 8 over the 8 data ranks.
    v1::PlanFile plan = imported("mixtral-8x7b-v0.1.json", "Mixtral",
                                 {.dp = 4,
                                  .tp = 2,
                                  .stages = {{0, 8}, {9, 16}, {17, 24}, {25, 34}},
                                  .micro = 4,
                                  .vpp = 2,
                                  .globalBatch = 16,
                                  .zero = 1});
    plan.mutable_layout()->set_context_parallel(2);
    plan.mutable_layout()->set_expert_parallel(8);
    plan.mutable_settings()->set_sequence_parallel(true);
    plan.mutable_settings()->set_tp_comm_overlap(true);
    const Result<QString> megatron = megatronArguments(plan);
    QVERIFY2(megatron.has_value(), megatron ? "" : megatron.error().message.c_str());
    for (const char* flag :
         {"--num-experts 8", "--moe-router-topk 2", "--moe-ffn-hidden-size 14336",
          "--expert-model-parallel-size 8", "--context-parallel-size 2", "--cp-comm-type p2p",
          "--num-virtual-stages-per-pipeline-rank 2", "--pipeline-model-parallel-size 2",
          "--tensor-model-parallel-size 2", "--moe-token-dispatcher-type alltoall",
          "--moe-aux-loss-coeff 0.02", "32 ranks = DP 4 x PP 2 x CP 2 x TP 2, EP 8",
          "--sequence-parallel", "--tp-comm-overlap"}) {
        QVERIFY2(megatron->contains(QLatin1String(flag)),
                 qPrintable(QStringLiteral("no '%1' in\n%2").arg(QLatin1String(flag), *megatron)));
    }
    const Result<QString> titan = torchtitanParallelism(plan);
    QVERIFY2(titan.has_value(), titan ? "" : titan.error().message.c_str());
    QVERIFY(titan->contains(QLatin1String("context_parallel_degree = 2")));
    QVERIFY(titan->contains(QLatin1String("expert_parallel_degree = 8")));
    QVERIFY(titan->contains(QLatin1String("pipeline_parallel_schedule = \"Interleaved1F1B\"")));
    const Result<QString> ds = deepSpeedConfig(plan); // no ring CP, no interleaving there
    QVERIFY(!ds.has_value());
    // Qwen2's q/k/v biases and Qwen3's q/k norms have their Megatron-LM flags
    // (arguments.py _add_network_size_args); both are otherwise LLaMA-shaped.
    const Result<QString> qwen2 = megatronArguments(imported("qwen2-7b.json", "Qwen2", {.tp = 4}));
    QVERIFY2(qwen2.has_value(), qwen2 ? "" : qwen2.error().message.c_str());
    QVERIFY(qwen2->contains(QLatin1String("--add-qkv-bias")));
    QVERIFY(!qwen2->contains(QLatin1String("--qk-layernorm")));
    QVERIFY(qwen2->contains(QLatin1String("--num-query-groups 4")));
    const Result<QString> qwen3 = megatronArguments(imported("qwen3-8b.json", "Qwen3", {.tp = 8}));
    QVERIFY2(qwen3.has_value(), qwen3 ? "" : qwen3.error().message.c_str());
    QVERIFY(qwen3->contains(QLatin1String("--qk-layernorm")));
    QVERIFY(!qwen3->contains(QLatin1String("--add-qkv-bias")));
    QVERIFY(!qwen3->contains(QLatin1String("--kv-channels"))); // head_dim 128 = 4096 / 32
    // Qwen3-0.6B's head_dim 128 is not its hidden 1,024 / 16 heads: Megatron-LM needs it given.
    v1::PlanFile small = imported("qwen3-8b.json", "Qwen3 small", {.tp = 1});
    small.set_hf_config_json(R"({"model_type":"qwen3","hidden_size":1024,"head_dim":128,
        "intermediate_size":3072,"num_attention_heads":16,"num_key_value_heads":8,
        "num_hidden_layers":28,"vocab_size":151936,"max_position_embeddings":40960,
        "tie_word_embeddings":true})");
    const Result<QString> tiny = megatronArguments(small);
    QVERIFY2(tiny.has_value(), tiny ? "" : tiny.error().message.c_str());
    QVERIFY2(tiny->contains(QLatin1String("--kv-channels 128")), qPrintable(*tiny));
    // Qwen2-MoE: the shared expert and its sigmoid gate, softmax before the top-k
    // (norm_topk_prob false); Qwen3-MoE: q/k norms, 128 experts, top-k then softmax.
    const Result<QString> qwen2moe =
        megatronArguments(imported("qwen2-57b-a14b.json", "Qwen2-MoE", {.dp = 8, .tp = 4}));
    QVERIFY2(qwen2moe.has_value(), qwen2moe ? "" : qwen2moe.error().message.c_str());
    for (const char* flag :
         {"--num-experts 64", "--moe-router-topk 8", "--moe-ffn-hidden-size 2560",
          "--moe-shared-expert-intermediate-size 20480", "--moe-shared-expert-gate",
          "--moe-router-pre-softmax", "--add-qkv-bias", "--ffn-hidden-size 18944"}) {
        QVERIFY2(qwen2moe->contains(QLatin1String(flag)),
                 qPrintable(QStringLiteral("no '%1' in\n%2").arg(QLatin1String(flag), *qwen2moe)));
    }
    QVERIFY(!qwen2moe->contains(QLatin1String("--moe-layer-freq"))); // every block is MoE
    const Result<QString> qwen3moe =
        megatronArguments(imported("qwen3-30b-a3b.json", "Qwen3-MoE", {.dp = 8, .tp = 4}));
    QVERIFY2(qwen3moe.has_value(), qwen3moe ? "" : qwen3moe.error().message.c_str());
    for (const char* flag : {"--num-experts 128", "--moe-ffn-hidden-size 768", "--qk-layernorm",
                             "--kv-channels 128", "--num-query-groups 4"}) {
        QVERIFY2(qwen3moe->contains(QLatin1String(flag)),
                 qPrintable(QStringLiteral("no '%1' in\n%2").arg(QLatin1String(flag), *qwen3moe)));
    }
    QVERIFY(!qwen3moe->contains(QLatin1String("--moe-router-pre-softmax")));
    QVERIFY(!qwen3moe->contains(QLatin1String("--moe-shared-expert")));
    // Dense blocks among the MoE ones (mlp_only_layers) are listed block by block.
    v1::PlanFile mixed = imported("qwen3-30b-a3b.json", "Qwen3-MoE mixed", {.dp = 8, .tp = 4});
    QJsonObject cfg =
        QJsonDocument::fromJson(QByteArray::fromStdString(mixed.hf_config_json())).object();
    cfg.insert(QStringLiteral("num_hidden_layers"), 4);
    cfg.insert(QStringLiteral("mlp_only_layers"), QJsonArray{0, 2});
    mixed.set_hf_config_json(QJsonDocument(cfg).toJson().toStdString());
    const Result<QString> mixedArgs = megatronArguments(mixed);
    QVERIFY2(mixedArgs.has_value(), mixedArgs ? "" : mixedArgs.error().message.c_str());
    QVERIFY2(mixedArgs->contains(QLatin1String("--moe-layer-freq \"[0,1,0,1]\"")),
             qPrintable(*mixedArgs));
    const v1::PlanFile gemma = imported("gemma-2-9b.json", "Gemma 2", {.tp = 8});
    const Result<QString> refused = megatronArguments(gemma);
    QVERIFY(!refused.has_value());
    QVERIFY2(QString::fromStdString(refused.error().message).contains(QLatin1String("gemma2")),
             refused.error().message.c_str());
}

/// DeepSeek-V3 and V2 export with Megatron-LM's latent-attention, router and multi-token-
/// prediction flags (as its DeepSeek examples set them: examples/post_training/modelopt/conf/
/// deepseek-ai/DeepSeek-R1.sh at core_v0.15.2); the MTP module sits on the head's stage, in a
/// layout string as "m" before "L", and a stage holding it without the head is refused.
void TestLayoutExportFamilies::deepSeekExportsLatentAttentionAndItsRouter() {
    // DeepSeek-V3: embedding 0, blocks 1-61, ln_f 62, head 63, mtp0 64.
    const Stages even = {{0, 16}, {17, 32}, {33, 48}, {49, 64}};
    v1::PlanFile v3 =
        imported("deepseek-v3.json", "DeepSeek-V3",
                 {.dp = 8, .tp = 8, .stages = even, .micro = 16, .globalBatch = 128, .zero = 1});
    v3.mutable_layout()->set_expert_parallel(8);
    const Result<QString> args = megatronArguments(v3);
    QVERIFY2(args.has_value(), args ? "" : args.error().message.c_str());
    for (const char* flag : {"--multi-latent-attention",
                             "--q-lora-rank 1536",
                             "--kv-lora-rank 512",
                             "--qk-head-dim 128",
                             "--qk-pos-emb-head-dim 64",
                             "--v-head-dim 128",
                             "--qk-layernorm",
                             "--rope-type yarn",
                             "--rotary-scaling-factor 40",
                             "--mscale 1\n",
                             "--mscale-all-dim 1\n",
                             "--num-experts 256",
                             "--moe-router-topk 8",
                             "--moe-ffn-hidden-size 2048",
                             "--moe-shared-expert-intermediate-size 2048",
                             "--moe-router-score-function sigmoid",
                             "--moe-router-num-groups 8",
                             "--moe-router-group-topk 4",
                             "--moe-router-topk-scaling-factor 2.5",
                             "--moe-router-enable-expert-bias",
                             "--moe-layer-freq \"[0]*3+[1]*58\"",
                             "--moe-router-load-balancing-type seq_aux_loss",
                             "--moe-aux-loss-coeff 0.001",
                             "--mtp-num-layers 1",
                             "--expert-model-parallel-size 8",
                             "--num-layers 61",
                             "--ffn-hidden-size 18432",
                             "--decoder-last-pipeline-num-layers 13"}) {
        QVERIFY2(args->contains(QLatin1String(flag)),
                 qPrintable(QStringLiteral("no '%1' in\n%2").arg(QLatin1String(flag), *args)));
    }
    for (const char* absent : {"--group-query-attention", "--kv-channels", "--num-query-groups"}) {
        QVERIFY2(!args->contains(QLatin1String(absent)), qPrintable(*args));
    }
    // Uneven middle stages: a layout string, the MTP module before the loss.
    v1::PlanFile uneven = v3;
    uneven.mutable_layout()->mutable_stages(0)->set_last_layer(10);
    uneven.mutable_layout()->mutable_stages(1)->set_first_layer(11);
    const Result<QString> layout = megatronArguments(uneven);
    QVERIFY2(layout.has_value(), layout ? "" : layout.error().message.c_str());
    QVERIFY2(layout->contains(
                 QLatin1String("--pipeline-model-parallel-layout \"Et*10|t*22|t*16|t*13mL\"")),
             qPrintable(*layout));
    // The MTP module alone on a fifth stage: Megatron-LM cannot build it after the loss.
    v1::PlanFile alone = imported(
        "deepseek-v3.json", "DeepSeek-V3",
        {.tp = 8, .stages = {{0, 16}, {17, 32}, {33, 48}, {49, 63}, {64, 64}}, .micro = 8});
    const Result<QString> refused = megatronArguments(alone);
    QVERIFY(!refused.has_value());
    QVERIFY2(QString::fromStdString(refused.error().message).contains(QLatin1String("stage 4")),
             refused.error().message.c_str());
    // torchtitan's DeepSeek-V3 has no MTP module: left out of the stage lists, with a note.
    const Result<QString> titan = torchtitanParallelism(v3);
    QVERIFY2(titan.has_value(), titan ? "" : titan.error().message.c_str());
    QVERIFY2(titan->contains(QLatin1String("\"layers.60\", \"norm\", \"output\"]")) &&
                 titan->contains(QLatin1String("no multi-token-prediction module")),
             qPrintable(*titan));

    // DeepSeek-V2: softmax scores over every expert, group-limited top-6 of the best 3 of 8
    // groups, weights × 16, two shared experts of 1,536, one dense block first, YaRN's mscale.
    v1::PlanFile v2 = imported("deepseek-v2.json", "DeepSeek-V2", {.dp = 8, .tp = 8, .micro = 8});
    v2.mutable_layout()->set_expert_parallel(8);
    const Result<QString> v2args = megatronArguments(v2);
    QVERIFY2(v2args.has_value(), v2args ? "" : v2args.error().message.c_str());
    for (const char* flag :
         {"--moe-router-pre-softmax", "--moe-router-num-groups 8", "--moe-router-group-topk 3",
          "--moe-router-topk-scaling-factor 16", "--moe-shared-expert-intermediate-size 3072",
          "--moe-layer-freq \"[0]*1+[1]*59\"", "--mscale 0.707", "--moe-aux-loss-coeff 0.003"}) {
        QVERIFY2(v2args->contains(QLatin1String(flag)),
                 qPrintable(QStringLiteral("no '%1' in\n%2").arg(QLatin1String(flag), *v2args)));
    }
    for (const char* absent :
         {"--moe-router-score-function", "--moe-router-enable-expert-bias", "--mtp-num-layers"}) {
        QVERIFY2(!v2args->contains(QLatin1String(absent)), qPrintable(*v2args));
    }

    // Hostile routers: what Megatron-LM has no flag for is refused naming the field and value;
    // group counts beyond any router are ignored, not cast.
    const auto withField = [&](const char* key, const QJsonValue& value) {
        v1::PlanFile plan = v2;
        QJsonObject cfg =
            QJsonDocument::fromJson(QByteArray::fromStdString(plan.hf_config_json())).object();
        cfg.insert(QLatin1String(key), value);
        plan.set_hf_config_json(QJsonDocument(cfg).toJson().toStdString());
        return megatronArguments(plan);
    };
    const std::pair<const char*, QJsonValue> odd[] = {{"scoring_func", QStringLiteral("tanh")},
                                                      {"topk_method", 7},
                                                      {"attention_bias", true},
                                                      {"mlp_bias", true}};
    for (const auto& [key, value] : odd) {
        const Result<QString> r = withField(key, value);
        QVERIFY2(!r.has_value(), key);
        QVERIFY2(QString::fromStdString(r.error().message).contains(QLatin1String(key)),
                 r.error().message.c_str());
    }
    const Result<QString> huge = withField("n_group", 1e30);
    QVERIFY2(huge.has_value(), huge ? "" : huge.error().message.c_str());
    QVERIFY(!huge->contains(QLatin1String("--moe-router-num-groups")));
}

/// A sliding attention window shorter than the sequence is Megatron-LM's --window-size (keys
/// before the query; transformers' sliding_window counts the query too), blocks that attend
/// fully --window-attn-skip-freq; a window the sequence fits in changes nothing. Phi-3 (a
/// LLaMA-type decoder with a window of 2,047) exports.
void TestLayoutExportFamilies::slidingWindowsAndPhi3() {
    const auto megatron = [](v1::PlanFile plan, int seq) {
        plan.set_seq_len(seq);
        return megatronArguments(plan);
    };
    const v1::PlanFile phi3 = imported("phi-3-mini-4k.json", "Phi-3", {.dp = 8});
    const Result<QString> phi = megatron(phi3, 4096);
    QVERIFY2(phi.has_value(), phi ? "" : phi.error().message.c_str());
    QVERIFY2(phi->contains(QLatin1String("--window-size \"2046,0\"")) &&
                 phi->contains(QLatin1String("--num-layers 32")) &&
                 !phi->contains(QLatin1String("--window-attn-skip-freq")),
             qPrintable(*phi));
    // Mistral-7B's 4,096-token window: nothing at 4,096 tokens, the window at 8,192.
    const v1::PlanFile mistral = imported("mistral-7b-v0.1.json", "Mistral", {.dp = 8});
    const Result<QString> fits = megatron(mistral, 4096);
    QVERIFY2(fits.has_value() && !fits->contains(QLatin1String("--window-size")) &&
                 fits->contains(QLatin1String("covers the sequence")),
             fits ? qPrintable(*fits) : fits.error().message.c_str());
    const Result<QString> longer = megatron(mistral, 8192);
    QVERIFY2(longer.has_value() && longer->contains(QLatin1String("--window-size \"4095,0\"")),
             longer ? qPrintable(*longer) : longer.error().message.c_str());
    // Qwen3 with its window on the blocks past max_window_layers: the rest attend fully.
    v1::PlanFile qwen = imported("qwen3-8b.json", "Qwen3", {.dp = 8});
    QJsonObject cfg =
        QJsonDocument::fromJson(QByteArray::fromStdString(qwen.hf_config_json())).object();
    cfg.insert(QStringLiteral("use_sliding_window"), true);
    cfg.insert(QStringLiteral("sliding_window"), 4096);
    cfg.insert(QStringLiteral("max_window_layers"), 28);
    qwen.set_hf_config_json(QJsonDocument(cfg).toJson().toStdString());
    const Result<QString> mixed = megatron(qwen, 8192);
    QVERIFY2(mixed.has_value() &&
                 mixed->contains(QLatin1String("--window-attn-skip-freq \"[0]*28+[1]*8\"")),
             mixed ? qPrintable(*mixed) : mixed.error().message.c_str());
    // torchtitan cannot set a window: it says so rather than stay silent.
    const Result<QString> titan = torchtitanParallelism(phi3);
    QVERIFY2(titan.has_value() && titan->contains(QLatin1String("sliding attention window")),
             titan ? qPrintable(*titan) : titan.error().message.c_str());
}

QTEST_GUILESS_MAIN(TestLayoutExportFamilies)
#include "tst_layoutexport_families.moc"
