// The questions the window asks before work could be lost (an unsaved layout, a running job on
// close or release), as data: a test answers them through an Asker instead of a modal box.
#pragma once

#include <QList>
#include <QMap>
#include <QString>

#include <functional>

class QWidget;

namespace tessera {

/// An answer a Question can offer.
enum class Choice {
    Save,        ///< save the layout first
    Discard,     ///< drop the unsaved changes
    Stop,        ///< stop the running job(s), then go on
    KeepRunning, ///< go on and leave the job(s) running (workers that outlive the app only)
    Cancel,      ///< do nothing: the window, the layout and the jobs stay as they are
};

/// One question: what is at stake and the answers on offer (Cancel is always among them and is
/// what Escape or closing the box means).
struct Question {
    QString title;         ///< the box's window title
    QString text;          ///< the question itself
    QString details;       ///< what each answer does, under it
    QList<Choice> choices; ///< offered answers, in button order
    /// Button texts that say what happens ("Stop the job and quit"); Stop and KeepRunning fall
    /// back to a plain "Stop the job" / "Keep it running", the others to Qt's standard texts.
    QMap<Choice, QString> labels;
};

/// Returns one of `question.choices`.
using Asker = std::function<Choice(const Question& question)>;

/// Asks with a modal QMessageBox over `parent`: Save/Discard/Cancel are Qt's standard buttons
/// (translated by Qt), Stop and Keep running are named after what they do. Cancel is the escape
/// and the default button.
Choice askWithMessageBox(QWidget* parent, const Question& question);

} // namespace tessera
