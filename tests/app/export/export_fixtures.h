// What the layout-export tests share: a layout file drawn on a built-in or imported model (the
// layout and settings each case sets), for tst_layoutexport and tst_layoutexport_families.
#pragma once

#include "tessera/v1/plan.pb.h"

#include <QFile>
#include <QString>

#include <string>
#include <utility>
#include <vector>

namespace tessera::designer::test {

using Stages = std::vector<std::pair<int, int>>;

/// The layout and settings every case sets.
struct Draw {
    int dp = 1, tp = 1;
    Stages stages;
    int micro = 1;
    bool gpipe = false;
    int vpp = 1;     ///< > 1: interleaved 1F1B, `stages` then lists every model chunk
    bool zb = false; ///< ZB-H1
    int globalBatch = 64, zero = 0;
    std::string recompute, precision, optimizer = "adamw";
    bool sequenceParallel = false;
};

inline v1::PlanFile drawn(v1::PlanFile plan, const Draw& d) {
    v1::Layout* l = plan.mutable_layout();
    l->set_data_parallel(d.dp);
    l->set_tensor_parallel(d.tp);
    for (auto [first, last] : d.stages) {
        v1::Stage* s = l->add_stages();
        s->set_first_layer(first);
        s->set_last_layer(last);
    }
    l->set_micro_batches(d.micro);
    l->set_schedule(d.gpipe     ? v1::PIPELINE_SCHEDULE_GPIPE
                    : d.vpp > 1 ? v1::PIPELINE_SCHEDULE_INTERLEAVED
                    : d.zb      ? v1::PIPELINE_SCHEDULE_ZB_H1
                                : v1::PIPELINE_SCHEDULE_1F1B);
    if (d.vpp > 1) {
        l->set_virtual_stages(d.vpp);
    }
    v1::PlanSettings* s = plan.mutable_settings();
    s->set_global_batch(d.globalBatch);
    s->set_zero_stage(d.zero);
    s->set_recompute(d.recompute);
    s->set_precision(d.precision);
    s->set_optimizer(d.optimizer);
    s->set_sequence_parallel(d.sequenceParallel);
    return plan;
}

/// A built-in GPT: layer list [embedding, block0..block{blocks-1}, ln_f, head].
inline v1::PlanFile gpt(int blocks, const Draw& d) {
    v1::PlanFile plan;
    plan.set_name("GPT test");
    v1::ModelSpec* m = plan.mutable_model();
    m->set_family("gpt");
    m->set_dim(256);
    m->set_blocks(blocks);
    m->set_heads(8);
    m->set_context(128);
    return drawn(plan, d);
}

inline v1::PlanFile mlp(const Draw& d) {
    v1::PlanFile plan;
    plan.set_name("MLP test");
    plan.mutable_model()->set_family("mlp");
    plan.mutable_model()->add_hidden(256);
    plan.mutable_model()->add_hidden(128);
    return drawn(plan, d);
}

/// A model from resources/planner/models/ (the published config.json).
inline v1::PlanFile imported(const char* file, const char* name, const Draw& d) {
    QFile f(QStringLiteral(TESSERA_SOURCE_DIR "/resources/planner/models/") + QLatin1String(file));
    if (!f.open(QIODevice::ReadOnly)) {
        qFatal("cannot read %s", file);
    }
    v1::PlanFile plan;
    plan.set_name(name);
    plan.set_hf_config_json(f.readAll().toStdString());
    return drawn(plan, d);
}

} // namespace tessera::designer::test
