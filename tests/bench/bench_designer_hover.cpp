// tessera-bench-designer-hover (issue 19): how the designer keeps up while a drag hovers over a
// real cluster's devices. For each hover, through the page's real path — a drag-move event on
// the canvas → the drop rules → the planner's re-estimate (EstimateRunner) → roles, memory bars,
// estimate panel and Gantt updated → the canvas repainted — the time until the repaint is done.
// LLaMA-2 13B, TP 8 × PP 4 × DP 32 on 128 × 8 H100 (1,024 devices), against the same model,
// TP 8 × PP 1 on 1 × 8 H100 (the peer, same run). Goal: p95 under 50 ms at 1,024 devices.
// Label `bench`: ctest --test-dir build -L bench -R bench_designer_hover -V
#include "app/designer/clusterscene.h"
#include "app/designer/designerpanel.h"
#include "app/designer/deviceitem.h"
#include "app/designer/estimaterunner.h"
#include "app/designer/layerpalettemodel.h"
#include "app/designer/plandocument.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QGraphicsView>
#include <QListView>
#include <QMimeData>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cstdio>

using namespace tessera;
using namespace tessera::designer;

namespace {

double percentile(std::vector<double> v, double p) {
    if (v.empty()) {
        return 0;
    }
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, std::size_t(p * double(v.size() - 1) + 0.5))];
}

struct HoverTimes {
    std::vector<double> ms;
    int devices = 0;
};

/// Hovers `hovers` times over devices spread across the cluster and returns the times.
HoverTimes hoverTimes(const QString& machines, int tp, int stages, int dp, int hovers) {
    HoverTimes out;
    DesignerPanel panel(nullptr);
    panel.resize(1366, 700);
    panel.show();
    if (!QTest::qWaitForWindowExposed(&panel) ||
        !panel.selectModel(QStringLiteral("llama-2-13b"))) {
        return out;
    }
    panel.setHypotheticalCluster(machines);
    PlanDocument* doc = panel.document();
    const int layers = doc->layerCount();
    v1::PlanFile plan = doc->file();
    v1::Layout* l = plan.mutable_layout();
    l->set_tensor_parallel(tp);
    l->set_data_parallel(dp);
    l->set_micro_batches(16);
    l->clear_stages();
    for (int s = 0; s < stages; ++s) {
        v1::Stage* st = l->add_stages();
        st->set_first_layer(s * layers / stages);
        st->set_last_layer((s + 1) * layers / stages - 1);
    }
    plan.mutable_settings()->set_global_batch(1024);
    plan.mutable_settings()->set_zero_stage(1);
    doc->edit(plan, QStringLiteral("bench layout"));
    EstimateRunner* runner = panel.runner();
    QSignalSpy ready(runner, &EstimateRunner::ready);
    ready.wait(10000);
    out.devices = panel.scene()->deviceCount();

    // Drag the second half of the first stage's layers around the cluster.
    QListView* palette = panel.palette();
    const int first = layers / stages / 2, last = layers / stages - 1;
    palette->selectionModel()->select(
        QItemSelection(panel.paletteModel()->index(first), panel.paletteModel()->index(last)),
        QItemSelectionModel::ClearAndSelect);
    std::unique_ptr<QMimeData> mime(
        panel.paletteModel()->mimeData(palette->selectionModel()->selectedIndexes()));
    const auto centre = [&](int d) {
        return panel.view()->mapFromScene(panel.scene()->device(d)->sceneBoundingRect().center());
    };
    QDragEnterEvent enter(centre(0), Qt::CopyAction, mime.get(), Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(panel.view()->viewport(), &enter);
    ready.wait(10000);
    for (int i = 0; i < hovers; ++i) {
        const int device = (i * 37 + 1) % out.devices; // spread over nodes, stages, replicas
        ready.clear();
        QElapsedTimer clock;
        clock.start();
        QDragMoveEvent move(centre(device), Qt::CopyAction, mime.get(), Qt::LeftButton,
                            Qt::NoModifier);
        QCoreApplication::sendEvent(panel.view()->viewport(), &move);
        if (!panel.scene()->device(device)->dropRefused() && ready.isEmpty()) {
            ready.wait(10000); // the re-estimate, on the runner's thread when it is slow
        }
        panel.view()->viewport()->repaint();
        panel.repaint();
        out.ms.push_back(double(clock.nsecsElapsed()) / 1e6);
    }
    QDragLeaveEvent leave;
    QCoreApplication::sendEvent(panel.view()->viewport(), &leave);
    return out;
}

} // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QTemporaryDir data;
    qputenv("TESSERA_DATA_DIR", data.path().toLocal8Bit());
    qputenv("TESSERA_EXAMPLES_DIR", TESSERA_SOURCE_DIR "/resources/examples");
    const int hovers = 60;
    const HoverTimes peer = hoverTimes(QStringLiteral("1x8 h100-sxm"), 8, 1, 1, hovers);
    const HoverTimes big = hoverTimes(QStringLiteral("128x8 h100-sxm"), 8, 4, 32, hovers);
    if (peer.ms.empty() || big.ms.empty()) {
        std::fprintf(stderr, "llama-2-13b is not in resources/planner/models: nothing measured\n");
        return 1;
    }
    std::printf("designer hover → re-estimate → repaint, %d hovers each, ms\n", hovers);
    std::printf("%-34s %8s %8s %8s\n", "cluster", "p50", "p95", "max");
    for (const auto& [name, r] : {std::pair{"1 x 8 H100 (peer), 8 devices", &peer},
                                  std::pair{"128 x 8 H100, 1,024 devices", &big}}) {
        std::printf("%-34s %8.1f %8.1f %8.1f\n", name, percentile(r->ms, 0.5),
                    percentile(r->ms, 0.95), *std::max_element(r->ms.begin(), r->ms.end()));
    }
    const double p95 = percentile(big.ms, 0.95);
    std::printf("ratio p95 1,024 / 8 devices: %.2f×; goal p95 < 50 ms at 1,024: %s\n",
                p95 / std::max(1e-9, percentile(peer.ms, 0.95)), p95 < 50 ? "met" : "NOT met");
    return 0;
}
