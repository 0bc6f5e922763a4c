// The checker of tst_untranslated (see untranslatedwalker.h).
#include "tests/app/untranslatedwalker.h"

#include "app/designer/exportdialog.h"
#include "app/monitor/customplot.h"
#include "tests/app/pseudotranslator.h"
#include "tests/app/textdevice.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileInfo>
#include <QGraphicsItem>
#include <QGraphicsScene>
#include <QGraphicsView>
#include <QGroupBox>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPainter>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QSpinBox>
#include <QStatusBar>
#include <QSysInfo>
#include <QTabBar>
#include <QTextEdit>

#include <algorithm>
#include <map>

namespace tessera::test {

namespace {

/// Words that are the same in every language, so they may stand outside a translation (each is
/// shown as data or next to a translated label, never as a sentence):
const QSet<QString>& allowedWords() {
    static const QSet<QString> words = {
        // Unit symbols (SI and IEC) and the "×" of a layout, as shown after numbers.
        "s", "ms", "µs", "us", "ns", "h", "min", "B", "kB", "KB", "MB", "GB", "TB", "KiB", "MiB",
        "GiB", "TiB", "W", "GHz", "x", "TFLOP", "TFLOPs", "PFLOP",
        // Parallelism and hardware abbreviations used as-is in the field (Megatron-LM's, NVIDIA's).
        "DP", "TP", "PP", "GPU", "GPUs", "CPU", "MFU", "NCCL", "MPI", "CUDA", "ZeRO",
        // Product names.
        "Tessera", "PyTorch", "Megatron", "LM", "DeepSpeed", "torchtitan", "SSH", "Slurm",
        // Provider ids the offer and lease tables show ("local" is translated).
        "ssh", "slurm",
        // Key names of shortcuts (Qt translates them where a language names keys otherwise).
        "Ctrl", "Shift", "Alt", "Meta", "Return", "Enter", "Tab", "Esc", "Del"};
    return words;
}

/// `text` without the data values in it (longest first) and without paths and URLs.
QString withoutData(QString text, const QSet<QString>& data) {
    QStringList longestFirst(data.begin(), data.end());
    std::sort(longestFirst.begin(), longestFirst.end(),
              [](const QString& a, const QString& b) { return a.size() > b.size(); });
    for (const QString& d : longestFirst) {
        if (d.size() > 2) {
            text.replace(d, QStringLiteral(" "));
        }
    }
    static const QRegularExpression paths(QStringLiteral("\\S*/\\S*"));
    return text.replace(paths, QStringLiteral(" "));
}

/// The export dialog's Megatron-LM arguments, DeepSpeed JSON and torchtitan TOML are files for
/// those tools (their keys and comments are what the tools' documentation uses) while the
/// format expresses the layout; otherwise the view shows why not, a message for a person.
bool generatedFile(const QWidget* w) {
    using designer::ExportDialog;
    static const std::map<QString, ExportDialog::Format> views{
        {QStringLiteral("exportMegatron"), ExportDialog::Megatron},
        {QStringLiteral("exportDeepSpeed"), ExportDialog::DeepSpeed},
        {QStringLiteral("exportTorchtitan"), ExportDialog::Torchtitan}};
    const auto view = views.find(w->objectName());
    if (view == views.end()) {
        return false;
    }
    for (const QObject* o = w->parent(); o; o = o->parent()) {
        if (const auto* dialog = qobject_cast<const ExportDialog*>(o)) {
            return dialog->exportable(view->second);
        }
    }
    return false;
}

/// The text of rich text (tags out, the common entities resolved).
QString plain(QString html) {
    static const QRegularExpression tag(QStringLiteral("<[^>]*>"));
    html.replace(tag, QStringLiteral(" "));
    for (auto [entity, c] : {std::pair{"&nbsp;", " "},
                             {"&lt;", "<"},
                             {"&gt;", ">"},
                             {"&amp;", "&"},
                             {"&quot;", "\""}}) {
        html.replace(QLatin1String(entity), QLatin1String(c));
    }
    return html;
}

/// `text` without its mnemonic marks ("&Save" → "Save").
QString stripped(QString text) {
    text.remove(QLatin1Char('&'));
    return text;
}

} // namespace

QSet<QString> resourceData() {
    QSet<QString> data;
    const QDir examples(QStringLiteral(TESSERA_SOURCE_DIR "/resources/examples"));
    QStringList files;
    for (const QString& f : examples.entryList({"*.json"}, QDir::Files)) {
        files << examples.filePath(f);
    }
    for (const QString& f : QDir(examples.filePath("pytorch")).entryList({"*.json"}, QDir::Files)) {
        files << examples.filePath("pytorch/" + f);
    }
    for (const QString& path : files) {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly)) {
            continue;
        }
        const QJsonObject o = QJsonDocument::fromJson(file.readAll()).object();
        data << o.value("name").toString() << QFileInfo(path).completeBaseName()
             << QFileInfo(path).fileName();
        const QJsonObject model = o.value("model").toObject();
        data << model.value("family").toString();
    }
    const QDir models(QStringLiteral(TESSERA_SOURCE_DIR "/resources/planner/models"));
    for (const QString& f : models.entryList({"*.json"}, QDir::Files)) {
        data << QFileInfo(f).completeBaseName() << f;
    }
    // The host name local workers report (the cluster table's Host column).
    data << QSysInfo::machineHostName();
    data.remove(QString());
    return data;
}

QString dotDecimal(const QString& text, const QSet<QString>& data) {
    static const QRegularExpression number(QStringLiteral("(?<![\\w.:])\\d+\\.\\d+(?![\\w.:])"));
    // "235.146" is German for 235,146: digit groups, not a fraction.
    static const QRegularExpression groups(QStringLiteral("^[1-9]\\d{0,2}(\\.\\d{3})+$"));
    for (auto it = number.globalMatch(withoutData(text, data)); it.hasNext();) {
        if (const QString n = it.next().captured(); !groups.match(n).hasMatch()) {
            return n;
        }
    }
    return {};
}

QString untranslatedRest(const QString& text, const QSet<QString>& data) {
    if (data.contains(text.trimmed())) {
        return {};
    }
    QString rest;
    int depth = 0;
    for (QChar c : text) {
        if (c == kOpen) {
            ++depth;
        } else if (c == kClose) {
            if (depth > 0) {
                --depth;
            } else {
                rest.clear(); // its ‹ was before what this string holds (a wrapped line)
            }
        } else if (depth == 0) {
            rest += c;
        }
    }
    rest = withoutData(rest, data);
    // Identifiers with digits ("local-1", "job-3", "h100-sxm", "r0", "v1.2").
    static const QRegularExpression withDigits(QStringLiteral("[^\\s,;:()\\[\\]{}<>\"'=·—–]*"
                                                              "\\d[^\\s,;:()\\[\\]{}<>\"'=·—–]*"));
    rest.replace(withDigits, QStringLiteral(" "));
    static const QRegularExpression word(QStringLiteral("\\p{L}[\\p{L}\\p{M}'’]*"));
    QStringList bad;
    for (auto it = word.globalMatch(rest); it.hasNext();) {
        const QString w = it.next().captured();
        if (!allowedWords().contains(w) && w.size() > 1) {
            bad << w;
        }
    }
    return bad.join(' ');
}

void UntranslatedWalker::check(const QString& where, const QString& text) {
    if (text.trimmed().isEmpty()) {
        return;
    }
    // TESSERA_UNTRANSLATED_DUMP=1 lists every string looked at (to see what is covered).
    static const bool dump = qEnvironmentVariableIsSet("TESSERA_UNTRANSLATED_DUMP");
    if (dump) {
        qInfo().noquote() << "looked at:" << where << text.left(200);
    }
    if (m_seen.contains(text)) {
        return;
    }
    m_seen.insert(text);
    if (const QString bad = untranslatedRest(text, m_data); !bad.isEmpty()) {
        m_findings << QStringLiteral("%1: \"%2\" (%3)").arg(where, text.left(160), bad);
    }
    if (const QString number = dotDecimal(text, m_data); !number.isEmpty()) {
        m_decimals << QStringLiteral("%1: \"%2\" (%3)").arg(where, text.left(160), number);
    }
}

void UntranslatedWalker::walkActions(const QString& where, const QList<QAction*>& actions) {
    for (QAction* a : actions) {
        if (a->isSeparator() || m_actions.contains(a)) {
            continue;
        }
        remember(m_actions, a);
        const QString w = where + QStringLiteral(" action ") + a->objectName();
        check(w, a->text());
        check(w + " tooltip", a->toolTip() == stripped(a->text()) ? QString() : a->toolTip());
        check(w + " status tip", a->statusTip());
        check(w + " what's this", a->whatsThis());
        if (a->menu()) {
            walkWidget(a->menu());
        }
    }
}

void UntranslatedWalker::walkModel(const QString& where, const QAbstractItemModel* m) {
    if (!m) {
        return;
    }
    for (int c = 0; c < m->columnCount(); ++c) {
        for (int role : {int(Qt::DisplayRole), int(Qt::ToolTipRole)}) {
            check(where + " header", m->headerData(c, Qt::Horizontal, role).toString());
        }
    }
    for (int r = 0; r < std::min(m->rowCount(), 200); ++r) {
        for (int c = 0; c < m->columnCount(); ++c) {
            for (int role : {int(Qt::DisplayRole), int(Qt::ToolTipRole)}) {
                const QVariant v = m->data(m->index(r, c), role);
                if (v.typeId() == QMetaType::QString) {
                    check(where + QStringLiteral(" cell %1,%2").arg(r).arg(c), v.toString());
                }
            }
        }
    }
}

void UntranslatedWalker::walkPlot(const QString& where, QCustomPlot* plot) {
    for (QCPAxisRect* rect : plot->axisRects()) {
        for (QCPAxis* axis : rect->axes()) {
            check(where + " axis", axis->label());
        }
    }
    for (int i = 0; i < plot->plottableCount(); ++i) {
        if (plot->plottable(i)->visible()) {
            check(where + " plottable", plot->plottable(i)->name());
        }
    }
    for (int i = 0; i < plot->itemCount(); ++i) {
        if (auto* t = qobject_cast<QCPItemText*>(plot->item(i)); t && t->visible()) {
            check(where + " text item", t->text());
        }
    }
    for (int i = 0; i < plot->plotLayout()->elementCount(); ++i) {
        if (auto* t = qobject_cast<QCPTextElement*>(plot->plotLayout()->elementAt(i))) {
            check(where + " title", t->text());
        }
    }
    // What it paints (tick labels, legend, texts).
    TextDevice device(plot->size().expandedTo(QSize(1, 1)));
    QCPPainter painter(&device);
    plot->toPainter(&painter, plot->width(), plot->height());
    painter.end();
    for (const QString& line : device.lines()) {
        check(where + " painted", line);
    }
}

void UntranslatedWalker::walkScene(const QString& where, QGraphicsScene* scene) {
    if (!scene) {
        return;
    }
    const QRectF r = scene->itemsBoundingRect();
    TextDevice device(r.size().toSize().expandedTo(QSize(1, 1)));
    QPainter painter(&device);
    scene->render(&painter, QRectF(QPointF(0, 0), r.size()), r);
    painter.end();
    for (const QString& line : device.lines()) {
        check(where + " painted", line);
    }
    for (QGraphicsItem* item : scene->items()) {
        check(where + " item tooltip", item->toolTip());
    }
}

void UntranslatedWalker::walkPainted(const QString& where, QWidget* w) {
    const QMetaObject* mo = w->metaObject();
    while (mo && QByteArray(mo->className()).startsWith("tessera::")) {
        mo = mo->superClass();
    }
    if (mo == w->metaObject() || !mo) {
        return;
    }
    const QByteArray base = mo->className();
    if (base != "QWidget" && base != "QFrame") {
        return;
    }
    TextDevice device(w->size().expandedTo(QSize(1, 1)));
    w->render(&device, QPoint(), QRegion(), QWidget::RenderFlags());
    for (const QString& line : device.lines()) {
        check(where + " painted", line);
    }
}

void UntranslatedWalker::walkWidget(QWidget* w) {
    if (!w || m_widgets.contains(w)) {
        return;
    }
    remember(m_widgets, w);
    const QString where =
        QString::fromLatin1(w->metaObject()->className()) +
        (w->objectName().isEmpty() ? QString() : QStringLiteral(" '%1'").arg(w->objectName()));
    if (w->isWindow()) {
        check(where + " title", w->windowTitle());
    }
    check(where + " tooltip", w->toolTip());
    check(where + " status tip", w->statusTip());
    check(where + " what's this", w->whatsThis());
    check(where + " accessible name", w->accessibleName());
    check(where + " accessible description", w->accessibleDescription());
    if (auto* l = qobject_cast<QLabel*>(w)) {
        check(where, l->textFormat() == Qt::PlainText ? l->text() : plain(l->text()));
    }
    if (auto* b = qobject_cast<QAbstractButton*>(w)) {
        check(where, b->text());
    }
    if (auto* g = qobject_cast<QGroupBox*>(w)) {
        check(where, g->title());
    }
    if (auto* d = qobject_cast<QDockWidget*>(w)) {
        check(where + " title", d->windowTitle());
    }
    if (auto* t = qobject_cast<QTabBar*>(w)) {
        for (int i = 0; i < t->count(); ++i) {
            check(where + " tab", t->tabText(i));
            check(where + " tab tooltip", t->tabToolTip(i));
        }
    }
    if (auto* c = qobject_cast<QComboBox*>(w)) {
        for (int i = 0; i < c->count(); ++i) {
            check(where + " item", c->itemText(i));
            check(where + " item tooltip", c->itemData(i, Qt::ToolTipRole).toString());
        }
        if (c->isEditable()) {
            check(where + " placeholder", c->lineEdit()->placeholderText());
        }
    }
    if (auto* e = qobject_cast<QLineEdit*>(w)) {
        check(where + " placeholder", e->placeholderText());
    }
    if (auto* e = qobject_cast<QPlainTextEdit*>(w)) {
        check(where + " placeholder", e->placeholderText());
        if (e->isReadOnly() && !generatedFile(w)) {
            check(where + " text", e->toPlainText());
        }
    }
    if (auto* e = qobject_cast<QTextEdit*>(w)) {
        check(where + " placeholder", e->placeholderText());
        if (e->isReadOnly()) {
            check(where + " text", e->toPlainText());
        }
    }
    if (auto* s = qobject_cast<QSpinBox*>(w)) {
        check(where + " affix", s->prefix() + ' ' + s->suffix());
        check(where + " special value", s->specialValueText());
    }
    if (auto* s = qobject_cast<QDoubleSpinBox*>(w)) {
        check(where + " affix", s->prefix() + ' ' + s->suffix());
        check(where + " special value", s->specialValueText());
    }
    if (auto* v = qobject_cast<QAbstractItemView*>(w)) {
        walkModel(where, v->model());
    }
    if (auto* bar = qobject_cast<QStatusBar*>(w)) {
        check(where + " message", bar->currentMessage());
    }
    if (auto* p = qobject_cast<QCustomPlot*>(w)) {
        walkPlot(where, p);
    } else if (auto* g = qobject_cast<QGraphicsView*>(w)) {
        walkScene(where, g->scene());
    } else {
        walkPainted(where, w);
    }
    walkActions(where, w->actions());
    if (auto* bar = qobject_cast<QMenuBar*>(w)) {
        walkActions(where, bar->actions());
    }
    for (QWidget* child : w->findChildren<QWidget*>(Qt::FindDirectChildrenOnly)) {
        walkWidget(child);
    }
}

void UntranslatedWalker::remember(QSet<const QObject*>& walked, const QObject* o) {
    walked.insert(o);
    // A later object at the same address is another one: forget this one when it goes.
    QObject::connect(o, &QObject::destroyed, &m_guard, [&walked, o] { walked.remove(o); });
}

void UntranslatedWalker::walkAgain(QWidget* w) {
    m_widgets.remove(w);
    for (const QWidget* child : w->findChildren<QWidget*>()) {
        m_widgets.remove(child);
    }
    walkWidget(w);
}

} // namespace tessera::test
