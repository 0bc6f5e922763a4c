// tessera-ctl audit (see auditcommand.h).
#include "backend/ctl/auditcommand.h"

#include "backend/core/paths.h"
#include "backend/ctl/servercontact.h"
#include "backend/history/metricstore.h"
#include "backend/service/backendclient.h"
#include "backend/service/datafolderlock.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cstdio>

namespace tessera::ctl {

namespace {

int refuse(const Error& e) {
    std::fprintf(stderr, "tessera-ctl: error: %s\n", e.message.c_str());
    return e.code == ErrorCode::Unavailable ? kExitUnreachable : kExitBadInput;
}

void print(const QList<AuditEntry>& lines, bool json) {
    if (json) {
        QJsonArray rows;
        for (const AuditEntry& e : lines) {
            rows.append(QJsonObject{{QStringLiteral("time_ms"), e.timeMs},
                                    {QStringLiteral("user"), e.user},
                                    {QStringLiteral("action"), e.action},
                                    {QStringLiteral("target"), e.target},
                                    {QStringLiteral("outcome"), e.outcome},
                                    {QStringLiteral("detail"), e.detail}});
        }
        std::printf("%s\n", QJsonDocument(rows).toJson(QJsonDocument::Compact).constData());
        return;
    }
    std::printf("%-20s %-16s %-8s %-26s %-8s %s\n", "TIME (UTC)", "USER", "ACTION", "TARGET",
                "OUTCOME", "DETAIL");
    for (const AuditEntry& e : lines) {
        std::printf("%-20s %-16s %-8s %-26s %-8s %s\n",
                    qPrintable(QDateTime::fromMSecsSinceEpoch(e.timeMs, Qt::UTC)
                                   .toString(QStringLiteral("yyyy-MM-dd hh:mm:ss"))),
                    qPrintable(e.user), qPrintable(e.action), qPrintable(e.target),
                    qPrintable(e.outcome), qPrintable(e.detail));
    }
}

} // namespace

int audit(const CtlOptions& options) {
    auto contact = serverContact(options);
    if (!contact) {
        return refuse(contact.error());
    }
    std::unique_ptr<BackendClient> client;
    if (*contact) {
        client = std::make_unique<BackendClient>((*contact)->owner.endpoint, (*contact)->identity);
    } else if (const auto owner = DataFolderLock(dataDir()).otherOwner();
               owner && !owner->endpoint.isEmpty()) {
        client = std::make_unique<BackendClient>(owner->endpoint);
    }
    QList<AuditEntry> lines;
    if (client) {
        auto reply = client->audit(options.limit);
        if (!reply) {
            return refuse(reply.error());
        }
        for (const auto& l : reply->lines()) {
            lines.append({l.time_ms(), QString::fromStdString(l.user()),
                          QString::fromStdString(l.action()), QString::fromStdString(l.target()),
                          QString::fromStdString(l.detail()), QString::fromStdString(l.outcome())});
        }
    } else {
        MetricStore store;
        if (Result<void> opened = store.open(MetricStore::defaultPath()); !opened) {
            return refuse(opened.error());
        }
        lines = store.audit(options.limit);
    }
    print(lines, options.json);
    return kExitOk;
}

} // namespace tessera::ctl
