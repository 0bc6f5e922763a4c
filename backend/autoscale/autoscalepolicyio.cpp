// The autoscaler's policy in QSettings (see autoscalepolicyio.h).
#include "backend/autoscale/autoscalepolicyio.h"

#include <QSettings>

namespace tessera {

AutoscalePolicy loadAutoscalePolicy() {
    QSettings s;
    s.beginGroup(QStringLiteral("autoscale"));
    AutoscalePolicy p;
    p.enabled = s.value(QStringLiteral("enabled"), p.enabled).toBool();
    p.maxPerHour = s.value(QStringLiteral("maxPerHour"), p.maxPerHour).toDouble();
    p.maxTotal = s.value(QStringLiteral("maxTotal"), p.maxTotal).toDouble();
    p.maxNodes = s.value(QStringLiteral("maxNodes"), p.maxNodes).toInt();
    p.idleTimeoutSec = s.value(QStringLiteral("idleTimeoutSec"), p.idleTimeoutSec).toInt();
    return p;
}

void saveAutoscalePolicy(const AutoscalePolicy& p) {
    QSettings s;
    s.beginGroup(QStringLiteral("autoscale"));
    s.setValue(QStringLiteral("enabled"), p.enabled);
    s.setValue(QStringLiteral("maxPerHour"), p.maxPerHour);
    s.setValue(QStringLiteral("maxTotal"), p.maxTotal);
    s.setValue(QStringLiteral("maxNodes"), p.maxNodes);
    s.setValue(QStringLiteral("idleTimeoutSec"), p.idleTimeoutSec);
}

} // namespace tessera
