// The bar at the top of the window that says the connection to the server is lost (and why)
// while the client reconnects; the charts keep what they have meanwhile.
#pragma once

#include <QFrame>

class QLabel;

namespace tessera {

namespace client {
class ServerConnection;
}

/// Hidden while the connection is up (or still opening); shown, naming the server and the
/// reason, when it is Lost (the client reconnects on its own) or Refused (it does not: the
/// certificate was refused, say what to do). `connection` must outlive it.
class LinkBanner : public QFrame {
    Q_OBJECT
public:
    explicit LinkBanner(client::ServerConnection* connection, QWidget* parent = nullptr);

    /// The text shown (empty while hidden).
    QString text() const;

private:
    void update();

    client::ServerConnection* m_connection;
    QLabel* m_text;
};

} // namespace tessera
