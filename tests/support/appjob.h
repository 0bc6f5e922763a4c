// App e2e tests: rent the two local workers and launch the Fashion-MNIST example the way a person
// does it, with the window's own buttons.
#pragma once

#include "app/cluster/clusterpanel.h"
#include "app/cluster/clustertablemodel.h"
#include "app/jobs/jobpanel.h"
#include "app/mainwindow.h"

#include <QComboBox>
#include <QPushButton>
#include <QTest>
#include <QToolButton>

namespace tessera::test {

/// Clicks Rent (the panel's default: two one-slot local workers) and waits until both are Ready.
/// Returns "" or what went wrong.
inline QString rentTwoLocalWorkers(MainWindow& window) {
    auto* rent = window.findChild<QToolButton*>(QStringLiteral("rentButton"));
    if (!rent) {
        return QStringLiteral("no rent button");
    }
    QTest::mouseClick(rent, Qt::LeftButton);
    const bool ready =
        QTest::qWaitFor([&] { return window.clusterPanel()->model()->readyCount() == 2; }, 60000);
    return ready ? QString() : QStringLiteral("the two local workers did not become Ready");
}

/// Waits for the server's answer to the launch `panel` just sent (it submits off the GUI thread)
/// and returns the job it launched, or "" with the panel's message in *error (may be null).
inline QString launchedJob(JobPanel& panel, QString* error = nullptr) {
    if (!QTest::qWaitFor([&] { return !panel.isSubmitting(); }, 30000)) {
        if (error) {
            *error = QStringLiteral("the server did not answer the launch within 30 s");
        }
        return QString();
    }
    const QString id = panel.currentJobId();
    if (id.isEmpty() && error) {
        *error = panel.messageText();
    }
    return id;
}

/// Picks the Fashion-MNIST example in the Job panel and clicks Launch. Returns the job id, or ""
/// with the panel's message in *error.
inline QString launchFashionMnist(MainWindow& window, QString* error) {
    auto* combo = window.findChild<QComboBox*>(QStringLiteral("specCombo"));
    auto* launch = window.findChild<QPushButton*>(QStringLiteral("launchButton"));
    if (!combo || !launch) {
        *error = QStringLiteral("no spec list or launch button");
        return QString();
    }
    combo->setCurrentIndex(combo->findText(QStringLiteral("fashion-mnist"), Qt::MatchContains));
    QTest::mouseClick(launch, Qt::LeftButton);
    return launchedJob(*window.jobPanel(), error);
}

} // namespace tessera::test
