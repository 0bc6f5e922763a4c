// Which lease of which installation a cloud instance belongs to (see instancename.h).
#include "backend/provision/cloud/instancename.h"

#include <QRegularExpression>

namespace tessera {

namespace {

constexpr int kMaxNameLength = 64; // Lambda's InstanceLaunchRequest.name maxLength

} // namespace

QString cloudInstanceName(const QString& owner, const QString& leaseId) {
    return (QStringLiteral("tessera-") + owner + QLatin1Char('-') + leaseId).left(kMaxNameLength);
}

InstanceOwner instanceOwner(const CloudInstance& instance) {
    InstanceOwner o;
    o.lease = instance.tag(QString::fromLatin1(kLeaseTag));
    if (!o.lease.isEmpty()) {
        o.owner = instance.tag(QString::fromLatin1(kOwnerTag));
        return o;
    }
    // Only a whole name of the form Tessera gives: a lease id of its own format, so that a
    // person's own "tessera-…" instance is never taken for a lease's.
    static const QRegularExpression form(
        QStringLiteral("^tessera-([0-9a-f]{16})-(lease-\\d{8}-\\d{6}-[0-9a-f]{4})$"));
    if (const auto m = form.match(instance.name); m.hasMatch()) {
        o.owner = m.captured(1);
        o.lease = m.captured(2);
        o.fromName = true;
    }
    return o;
}

} // namespace tessera
