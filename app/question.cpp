// A Question as a QMessageBox (see question.h).
#include "app/question.h"

#include <QCoreApplication>
#include <QMap>
#include <QMessageBox>
#include <QPushButton>

namespace tessera {

namespace {
/// The translation context of these messages (lupdate reads it from the macro).
struct Text {
    Q_DECLARE_TR_FUNCTIONS(tessera::Question)
};
} // namespace

Choice askWithMessageBox(QWidget* parent, const Question& question) {
    QMessageBox box(QMessageBox::Warning, question.title, question.text, QMessageBox::NoButton,
                    parent);
    box.setInformativeText(question.details);
    QMap<QAbstractButton*, Choice> answers;
    QAbstractButton* cancel = nullptr;
    for (Choice c : question.choices) {
        QAbstractButton* button = nullptr;
        switch (c) {
        case Choice::Save:
            button = box.addButton(QMessageBox::Save);
            break;
        case Choice::Discard:
            button = box.addButton(QMessageBox::Discard);
            break;
        case Choice::Stop:
            button = box.addButton(Text::tr("&Stop the job"), QMessageBox::DestructiveRole);
            break;
        case Choice::KeepRunning:
            button = box.addButton(Text::tr("&Keep it running"), QMessageBox::AcceptRole);
            break;
        case Choice::Cancel:
            button = cancel = box.addButton(QMessageBox::Cancel);
            break;
        }
        if (const QString label = question.labels.value(c); !label.isEmpty()) {
            button->setText(label);
        }
        answers.insert(button, c);
    }
    if (cancel) {
        box.setEscapeButton(cancel);
        box.setDefaultButton(qobject_cast<QPushButton*>(cancel));
    }
    box.exec();
    return answers.value(box.clickedButton(), Choice::Cancel);
}

} // namespace tessera
