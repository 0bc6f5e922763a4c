// The Rent dialog's line for a GPU cloud: what its offers' state is (listed, no key, refused),
// a button to give it an API key, and the instances Tessera launched but lost track of, with a
// button that releases them.
#pragma once

#include <QPointer>
#include <QWidget>

class QLabel;
class QPushButton;

namespace tessera {

class CloudProvider;

/// Never blocks: the key goes to a 0600 file at once (a few bytes), the listing and releases
/// arrive through the provider's signals.
class CloudBar : public QWidget {
    Q_OBJECT
public:
    /// `provider` must outlive the bar.
    explicit CloudBar(CloudProvider* provider, QWidget* parent = nullptr);

    QPushButton* keyButton() const { return m_keyButton; }
    QPushButton* releaseLostButton() const { return m_releaseLost; }
    /// The state line ("Lambda Cloud: 15 instance types" or why none are listed).
    QString stateText() const;
    /// The lost-instances line (empty while there are none).
    QString lostText() const;

public Q_SLOTS:
    /// Opens the key dialog (window-modal, non-blocking).
    void askForKey();
    /// Stores `key` and lists the offers with it.
    void setKey(const QString& key);
    /// Terminates every lost instance.
    void releaseLost();

Q_SIGNALS:
    /// A line for the dialog's status and the log pane.
    void message(const QString& text);

private:
    void update();

    CloudProvider* m_provider;
    QLabel* m_state;
    QLabel* m_lost;
    QPushButton* m_keyButton;
    QPushButton* m_releaseLost;
};

} // namespace tessera
