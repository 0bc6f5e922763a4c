// Holds the rank programs a test starts before chosen steps (TESSERA_HOLD_DIR, see
// worker/common/step_hold.h), so the test knows its job still runs when it acts on it: a job
// held before step 201 cannot have ended however fast the machine is.
#pragma once

#include <QDir>
#include <QFile>
#include <QSet>
#include <QString>

namespace tessera::test {

/// Hold files in one folder. Set it up before the workers start: they, mpirun and the ranks
/// inherit TESSERA_HOLD_DIR from the test's environment.
class JobHold {
public:
    /// Creates `dir` and points TESSERA_HOLD_DIR at it.
    explicit JobHold(const QString& dir) : m_dir(dir) {
        QDir().mkpath(m_dir);
        qputenv("TESSERA_HOLD_DIR", QFile::encodeName(m_dir));
    }
    /// Releases every hold (a rank still waiting goes on) and unsets TESSERA_HOLD_DIR.
    ~JobHold() {
        for (int step : QSet<int>(m_held)) {
            release(step);
        }
        qunsetenv("TESSERA_HOLD_DIR");
    }
    JobHold(const JobHold&) = delete;
    JobHold& operator=(const JobHold&) = delete;

    /// Ranks stop before `step` (counted from 1) until release(step). False if the file could not
    /// be created.
    bool hold(int step) {
        QFile f(path(step));
        if (!f.open(QIODevice::WriteOnly)) {
            return false;
        }
        m_held.insert(step);
        return true;
    }
    /// Lets the ranks waiting before `step` go on.
    void release(int step) {
        QFile::remove(path(step));
        m_held.remove(step);
    }

private:
    QString path(int step) const {
        return m_dir + QStringLiteral("/hold-") + QString::number(step);
    }

    QString m_dir;
    QSet<int> m_held;
};

} // namespace tessera::test
