// Command-line flags of the `tessera` app, parsed with QCommandLineParser.
#include "app/startupoptions.h"

#include <QCommandLineParser>
#include <QCoreApplication>

namespace tessera {

namespace {

std::string text(const QString& s) {
    return s.toStdString();
}

Result<int> intValue(const QCommandLineParser& p, const QString& name, int min, int max) {
    bool ok = false;
    const int v = p.value(name).toInt(&ok);
    if (!ok || v < min || v > max) {
        return fail(ErrorCode::InvalidArgument,
                    text(QStringLiteral("--%1 needs a whole number from %2 to %3, not '%4'")
                             .arg(name)
                             .arg(min)
                             .arg(max)
                             .arg(p.value(name))));
    }
    return v;
}

void configure(QCommandLineParser& p) {
    p.setApplicationDescription(
        QStringLiteral("Tessera: rent a cluster, launch distributed training and watch it live."));
    p.addOptions({
        {QStringLiteral("rent-local"), QStringLiteral("Rent N local workers at start."),
         QStringLiteral("N")},
        {QStringLiteral("slots-per-worker"), QStringLiteral("Ranks per rented worker."),
         QStringLiteral("N"), QStringLiteral("1")},
        {QStringLiteral("spec"), QStringLiteral("Add and select this job spec file."),
         QStringLiteral("FILE")},
        {QStringLiteral("launch"), QStringLiteral("Launch the spec once the cluster is ready.")},
        {QStringLiteral("screenshot"),
         QStringLiteral("Save a PNG of the window to FILE after K loss points."),
         QStringLiteral("FILE")},
        {QStringLiteral("quit-after-points"),
         QStringLiteral("Quit after K loss points (after the screenshot)."), QStringLiteral("K")},
        {QStringLiteral("timeout"), QStringLiteral("Give up (exit 1) after S seconds."),
         QStringLiteral("S"), QStringLiteral("0")},
        {QStringLiteral("data-dir"), QStringLiteral("History and local workers in DIR."),
         QStringLiteral("DIR")},
    });
    p.addHelpOption();
}

} // namespace

QString StartupOptions::helpText() {
    QCommandLineParser p;
    configure(p);
    return p.helpText();
}

Result<StartupOptions> StartupOptions::parse(const QStringList& arguments) {
    QCommandLineParser p;
    configure(p);
    if (!p.parse(arguments)) {
        return fail(ErrorCode::InvalidArgument, text(p.errorText()));
    }
    if (!p.positionalArguments().isEmpty()) {
        return fail(ErrorCode::InvalidArgument,
                    text(QStringLiteral("unexpected argument '%1' (a spec file goes after --spec)")
                             .arg(p.positionalArguments().constFirst())));
    }

    StartupOptions o;
    o.help = p.isSet(QStringLiteral("help"));
    if (o.help) {
        return o;
    }
    if (p.isSet(QStringLiteral("rent-local"))) {
        auto v = intValue(p, QStringLiteral("rent-local"), 1, 64);
        if (!v) {
            return relay(v);
        }
        o.rentLocal = *v;
    }
    auto slots = intValue(p, QStringLiteral("slots-per-worker"), 1, 64);
    if (!slots) {
        return relay(slots);
    }
    o.slotsPerWorker = *slots;
    o.spec = p.value(QStringLiteral("spec"));
    o.launch = p.isSet(QStringLiteral("launch"));
    o.screenshot = p.value(QStringLiteral("screenshot"));
    if (p.isSet(QStringLiteral("quit-after-points"))) {
        auto v = intValue(p, QStringLiteral("quit-after-points"), 1, 1000000);
        if (!v) {
            return relay(v);
        }
        o.quitAfterPoints = *v;
    } else if (!o.screenshot.isEmpty()) {
        o.quitAfterPoints = 5;
    }
    auto timeout = intValue(p, QStringLiteral("timeout"), 0, 86400);
    if (!timeout) {
        return relay(timeout);
    }
    o.timeoutSeconds = *timeout;
    o.dataDir = p.value(QStringLiteral("data-dir"));
    if (o.unattended() && !o.launch) {
        return fail(ErrorCode::InvalidArgument,
                    "--screenshot / --quit-after-points wait for loss points: add --launch");
    }
    return o;
}

} // namespace tessera
