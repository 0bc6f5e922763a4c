// Progress bar and accuracy lines of tessera-ctl (see progressprinter.h).
#include "backend/ctl/progressprinter.h"

#include <cmath>
#include <limits>

namespace tessera::ctl {

ProgressPrinter::ProgressPrinter(FILE* out, int epochs, bool tty)
    : m_out(out), m_epochs(epochs), m_tty(tty),
      m_lastAccuracy(std::numeric_limits<double>::quiet_NaN()) {}

QString ProgressPrinter::barLine(const MetricPoint& p, int epochs) {
    QString line = QStringLiteral("step %1").arg(p.step);
    if (p.values.contains(QStringLiteral("epoch"))) {
        const double epoch = p.values.value(QStringLiteral("epoch"));
        line += QStringLiteral("  epoch %1").arg(epoch, 0, 'f', 2);
        if (epochs > 0) {
            const int width = 20;
            const int filled = std::clamp(static_cast<int>(epoch / epochs * width), 0, width);
            line += QStringLiteral("/%1 [%2%3]")
                        .arg(epochs)
                        .arg(QString(filled, QLatin1Char('#')))
                        .arg(QString(width - filled, QLatin1Char('-')));
        }
    }
    if (p.values.contains(QStringLiteral("loss"))) {
        line += QStringLiteral("  loss %1").arg(p.values.value(QStringLiteral("loss")), 0, 'f', 4);
    }
    if (p.values.contains(QStringLiteral("samples_per_s"))) {
        line += QStringLiteral("  %1 samples/s")
                    .arg(p.values.value(QStringLiteral("samples_per_s")), 0, 'f', 0);
    }
    return line;
}

void ProgressPrinter::breakLine() {
    if (m_pendingCr) {
        std::fputc('\n', m_out);
        m_pendingCr = false;
    }
}

void ProgressPrinter::recovery(int attempt, const QString& cause, qint64 resumeStep,
                               const QStringList& workers) {
    breakLine();
    std::fflush(m_out);
    const QString from = resumeStep > 0
                             ? QStringLiteral("from its checkpoint of step %1").arg(resumeStep)
                             : QStringLiteral("from its checkpoint folder or step 0");
    std::fprintf(stderr,
                 "tessera-ctl: attempt %d ended (%s); relaunching it as attempt %d on %s %s\n",
                 attempt - 1, qPrintable(cause), attempt,
                 qPrintable(workers.join(QStringLiteral(", "))), qPrintable(from));
    std::fflush(stderr);
}

void ProgressPrinter::add(const MetricPoint& p) {
    m_lastStep = std::max(m_lastStep, p.step);
    if (p.values.contains(QStringLiteral("train_seconds"))) {
        m_trainSeconds = p.values.value(QStringLiteral("train_seconds"));
    }
    const bool hasAccuracy = p.values.contains(QStringLiteral("test_accuracy"));
    const bool hasTestLoss = p.values.contains(QStringLiteral("test_loss"));
    if (hasAccuracy || hasTestLoss) {
        breakLine();
        QString line =
            QStringLiteral("epoch %1:").arg(p.values.value(QStringLiteral("epoch")), 0, 'g', 4);
        if (hasAccuracy) {
            m_lastAccuracy = p.values.value(QStringLiteral("test_accuracy"));
            line += QStringLiteral(" test accuracy %1").arg(m_lastAccuracy, 0, 'f', 4);
        }
        if (hasTestLoss) {
            m_lastTestLoss = p.values.value(QStringLiteral("test_loss"));
            line += QStringLiteral("%1 test loss %2")
                        .arg(hasAccuracy ? QStringLiteral(",") : QString())
                        .arg(m_lastTestLoss, 0, 'f', 4);
        }
        std::fprintf(m_out, "%s\n", qPrintable(line));
        std::fflush(m_out);
        return;
    }
    if (!p.values.contains(QStringLiteral("loss"))) {
        return;
    }
    // One rank's loss drives the bar, the lowest that reports one: a program whose every rank
    // logs its own loss would otherwise make the bar jump between them.
    if (p.rank > m_barRank) {
        return;
    }
    m_barRank = p.rank;
    const QString line = barLine(p, m_epochs);
    if (m_tty) {
        std::fprintf(m_out, "\r%s\x1b[K", qPrintable(line));
        m_pendingCr = true;
    } else {
        std::fprintf(m_out, "%s\n", qPrintable(line));
    }
    std::fflush(m_out);
}

double ProgressPrinter::summary(const QString& jobId, const QString& stateName) {
    breakLine();
    if (!std::isnan(m_lastAccuracy)) {
        std::fprintf(m_out, "final test accuracy: %.4f\n", m_lastAccuracy);
    } else if (!std::isnan(m_lastTestLoss)) {
        std::fprintf(m_out, "final test loss: %.4f\n", m_lastTestLoss);
    }
    QString line = QStringLiteral("job %1 %2 after %3 steps").arg(jobId, stateName).arg(m_lastStep);
    if (m_trainSeconds >= 0) {
        line += QStringLiteral(" (%1 s of training)").arg(m_trainSeconds, 0, 'f', 1);
    }
    std::fprintf(m_out, "%s\n", qPrintable(line));
    std::fflush(m_out);
    return m_lastAccuracy;
}

} // namespace tessera::ctl
