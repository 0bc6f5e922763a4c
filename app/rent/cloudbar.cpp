// A GPU cloud's line in the Rent dialog (see cloudbar.h).
#include "app/rent/cloudbar.h"

#include "backend/provision/cloud/cloudapi.h"
#include "backend/provision/cloud/cloudprovider.h"
#include "backend/provision/cloud/cloudsettings.h"

#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace tessera {

CloudBar::CloudBar(CloudProvider* provider, QWidget* parent)
    : QWidget(parent), m_provider(provider), m_state(new QLabel(this)), m_lost(new QLabel(this)),
      m_keyButton(new QPushButton(tr("%1 API &key…").arg(provider->api()->displayName()), this)),
      m_releaseLost(new QPushButton(tr("Release &lost instances"), this)) {
    setObjectName(QStringLiteral("cloudBar"));
    m_state->setObjectName(QStringLiteral("cloudState"));
    m_state->setWordWrap(true);
    m_lost->setObjectName(QStringLiteral("cloudLost"));
    m_lost->setWordWrap(true);
    m_keyButton->setObjectName(QStringLiteral("cloudKey"));
    m_keyButton->setToolTip(tr("Give Tessera the API key of your %1 account (kept in a file only "
                               "you can read)")
                                .arg(provider->api()->displayName()));
    m_releaseLost->setObjectName(QStringLiteral("releaseLost"));
    m_releaseLost->setToolTip(tr("Terminate the instances Tessera launched but no lease holds"));
    auto* top = new QHBoxLayout;
    top->setContentsMargins(0, 0, 0, 0);
    top->addWidget(m_state, 1);
    top->addWidget(m_keyButton);
    auto* bottom = new QHBoxLayout;
    bottom->setContentsMargins(0, 0, 0, 0);
    bottom->addWidget(m_lost, 1);
    bottom->addWidget(m_releaseLost);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addLayout(bottom);
    connect(m_keyButton, &QPushButton::clicked, this, &CloudBar::askForKey);
    connect(m_releaseLost, &QPushButton::clicked, this, &CloudBar::releaseLost);
    connect(provider, &Provider::offersChanged, this, &CloudBar::update);
    connect(provider, &CloudProvider::straysChanged, this, &CloudBar::update);
    update();
}

QString CloudBar::stateText() const {
    return m_state->text();
}

QString CloudBar::lostText() const {
    return m_lost->isHidden() ? QString() : m_lost->text();
}

void CloudBar::update() {
    const QString cloud = m_provider->api()->displayName();
    if (!m_provider->api()->hasApiKey()) {
        m_state->setText(tr("%1: no API key yet — add one to see its GPUs and prices.").arg(cloud));
    } else if (!m_provider->offersError().isEmpty()) {
        m_state->setText(tr("%1: %2").arg(cloud, m_provider->offersError()));
    } else {
        m_state->setText(
            tr("%1: %n instance type(s) listed.", nullptr, int(m_provider->instanceTypes().size()))
                .arg(cloud));
    }
    const QList<CloudInstance> lost = m_provider->strays();
    QStringList names;
    for (const CloudInstance& i : lost) {
        names << tr("%1 (%2, %3, %4)").arg(i.id, i.typeName, i.region, i.statusText);
    }
    m_lost->setText(tr("Tessera launched %n instance(s) that no lease holds, still billing: %1",
                       nullptr, int(lost.size()))
                        .arg(names.join(QStringLiteral(", "))));
    m_lost->setVisible(!lost.isEmpty());
    m_releaseLost->setVisible(!lost.isEmpty());
}

void CloudBar::askForKey() {
    auto* d = new QInputDialog(this);
    d->setAttribute(Qt::WA_DeleteOnClose);
    d->setObjectName(QStringLiteral("cloudKeyDialog"));
    d->setWindowTitle(tr("%1 API key").arg(m_provider->api()->displayName()));
    d->setLabelText(tr("API key (from the console's API keys page):"));
    d->setTextEchoMode(QLineEdit::Password);
    d->setWindowModality(Qt::WindowModal);
    connect(d, &QInputDialog::textValueSelected, this, &CloudBar::setKey);
    d->open();
}

void CloudBar::setKey(const QString& key) {
    const QString cloud = m_provider->api()->displayName();
    m_state->setText(tr("%1: storing the key…").arg(cloud));
    setCloudApiKey(m_provider, key, [this, cloud](const Result<KeyPlace>& stored) {
        if (!stored) {
            m_state->setText(
                tr("%1: %2").arg(cloud, QString::fromStdString(stored.error().message)));
            Q_EMIT message(m_state->text());
            return;
        }
        m_state->setText(tr("%1: key stored; listing its offers…").arg(cloud));
        Q_EMIT message(
            tr("Stored the %1 API key in %2.").arg(cloud, keyPlaceText(*stored, m_provider->id())));
    });
}

void CloudBar::releaseLost() {
    QStringList asked;
    for (const CloudInstance& i : m_provider->strays()) {
        if (m_provider->releaseStray(i.id)) {
            asked << i.id;
        }
    }
    if (!asked.isEmpty()) {
        Q_EMIT message(tr("Terminating %1…").arg(asked.join(QStringLiteral(", "))));
    }
}

} // namespace tessera
