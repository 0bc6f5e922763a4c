// The lost-connection bar (see linkbanner.h).
#include "app/connection/linkbanner.h"

#include "backend/client/serverconnection.h"

#include <QHBoxLayout>
#include <QLabel>

namespace tessera {

LinkBanner::LinkBanner(client::ServerConnection* connection, QWidget* parent)
    : QFrame(parent), m_connection(connection), m_text(new QLabel(this)) {
    setObjectName(QStringLiteral("linkBanner"));
    setFrameShape(QFrame::StyledPanel);
    // The palette's warning colours: readable in light and dark themes alike.
    setAutoFillBackground(true);
    QPalette p = palette();
    p.setColor(QPalette::Window, QColor(255, 236, 179));
    p.setColor(QPalette::WindowText, QColor(60, 40, 0));
    setPalette(p);
    m_text->setWordWrap(true);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 4);
    layout->addWidget(m_text, 1);
    connect(connection, &client::ServerConnection::linkChanged, this, &LinkBanner::update);
    update();
}

QString LinkBanner::text() const {
    return isHidden() ? QString() : m_text->text();
}

void LinkBanner::update() {
    const QString where = m_connection->address().describe();
    switch (m_connection->link()) {
    case client::ServerConnection::Link::Connecting:
    case client::ServerConnection::Link::Connected:
        hide();
        return;
    case client::ServerConnection::Link::Lost:
        m_text->setText(tr("Lost the connection to the server (%1): %2. Reconnecting…; the "
                           "charts keep what they have and go on without a gap.")
                            .arg(where, m_connection->linkProblem()));
        break;
    case client::ServerConnection::Link::Refused:
        m_text->setText(tr("The server (%1) refused this client: %2. Ask its admin for a "
                           "certificate (tessera-ctl certify --client NAME), then connect again.")
                            .arg(where, m_connection->linkProblem()));
        break;
    }
    show();
}

} // namespace tessera
