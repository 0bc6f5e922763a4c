// Every string the app shows goes through the translator. A pseudo-translator that answers
// "‹source›" for every message of every context is installed before the main window is built;
// then the window, its docks, tabs, menus and the dialogs one reaches without a network are
// walked (texts, titles, tool tips, placeholders, combo items, model headers and cells, chart
// axes and legends, what custom widgets and the designer's canvas paint) and every string with
// a letter outside ‹…› fails the test, listed, once numbers, unit symbols and the short allow-list
// below are taken out.
#include "app/cluster/clusterpanel.h"
#include "app/cluster/clustertablemodel.h"
#include "app/designer/autoplandialog.h"
#include "app/designer/designerpanel.h"
#include "app/designer/estimatepanel.h"
#include "app/designer/exportdialog.h"
#include "app/designer/programlaunchdialog.h"
#include "app/jobs/jobpanel.h"
#include "app/mainwindow.h"
#include "app/monitor/customplot.h"
#include "app/rent/addsshhostdialog.h"
#include "app/rent/rentdialog.h"
#include "app/session.h"
#include "app/settings/autoscalesettings.h"
#include "backend/history/metricstore.h"
#include "backend/jobs/jobcontroller.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAbstractSpinBox>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QGraphicsScene>
#include <QGraphicsView>
#include <QGroupBox>
#include <QHeaderView>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPaintDevice>
#include <QPaintEngine>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QSpinBox>
#include <QStatusBar>
#include <QSysInfo>
#include <QTabBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextEdit>
#include <QTranslator>

#include <map>
#include <memory>

using namespace tessera;

namespace {

constexpr QChar kOpen(0x2039);  // ‹
constexpr QChar kClose(0x203A); // ›

/// Answers "‹source›" for every message, so an untranslated string stands out.
class PseudoTranslator : public QTranslator {
public:
    QString translate(const char* context, const char* sourceText, const char* disambiguation,
                      int n) const override {
        Q_UNUSED(disambiguation);
        Q_UNUSED(n);
        if (sourceText == nullptr || *sourceText == '\0')
            return {};
        // Key sequences stay as they are, so that QKeySequence(tr("Ctrl+L")) still parses.
        static const QRegularExpression keys(QStringLiteral(
            "^((Ctrl|Shift|Alt|Meta)\\+)+(\\w|F\\d+|Return|Enter|Tab|Del|Esc|\\.)$"));
        const QString source = QString::fromUtf8(sourceText);
        if (keys.match(source).hasMatch() || qstrcmp(context, "QShortcut") == 0)
            return source;
        return kOpen + source + kClose;
    }
    bool isEmpty() const override { return false; }
};

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

/// Job spec names, model and device names, file names: user data read from resources/, shown as
/// they are in the files.
QSet<QString> resourceData() {
    QSet<QString> data;
    const QDir examples(QStringLiteral(TESSERA_SOURCE_DIR "/resources/examples"));
    QStringList files;
    for (const QString& f : examples.entryList({"*.json"}, QDir::Files))
        files << examples.filePath(f);
    for (const QString& f : QDir(examples.filePath("pytorch")).entryList({"*.json"}, QDir::Files))
        files << examples.filePath("pytorch/" + f);
    for (const QString& path : files) {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            continue;
        const QJsonObject o = QJsonDocument::fromJson(file.readAll()).object();
        data << o.value("name").toString() << QFileInfo(path).completeBaseName()
             << QFileInfo(path).fileName();
        const QJsonObject model = o.value("model").toObject();
        data << model.value("family").toString();
    }
    const QDir models(QStringLiteral(TESSERA_SOURCE_DIR "/resources/planner/models"));
    for (const QString& f : models.entryList({"*.json"}, QDir::Files))
        data << QFileInfo(f).completeBaseName() << f;
    // The host name local workers report (the cluster table's Host column).
    data << QSysInfo::machineHostName();
    data.remove(QString());
    return data;
}

/// `text` without the data values in it (longest first) and without paths and URLs.
QString withoutData(QString text, const QSet<QString>& data) {
    QStringList longestFirst(data.begin(), data.end());
    std::sort(longestFirst.begin(), longestFirst.end(),
              [](const QString& a, const QString& b) { return a.size() > b.size(); });
    for (const QString& d : longestFirst)
        if (d.size() > 2)
            text.replace(d, QStringLiteral(" "));
    static const QRegularExpression paths(QStringLiteral("\\S*/\\S*"));
    return text.replace(paths, QStringLiteral(" "));
}

/// A number written with a '.' decimal point in `text` ("0.861"), outside data values; versions
/// and addresses ("v0.2.2", "127.0.0.1") are not numbers, nor are German digit groups
/// ("235.146"). Empty when there is none.
QString dotDecimal(const QString& text, const QSet<QString>& data) {
    static const QRegularExpression number(QStringLiteral("(?<![\\w.:])\\d+\\.\\d+(?![\\w.:])"));
    // "235.146" is German for 235,146: digit groups, not a fraction.
    static const QRegularExpression groups(QStringLiteral("^[1-9]\\d{0,2}(\\.\\d{3})+$"));
    for (auto it = number.globalMatch(withoutData(text, data)); it.hasNext();)
        if (const QString n = it.next().captured(); !groups.match(n).hasMatch())
            return n;
    return {};
}

/// What of `text` is not translated: the text without its ‹…› parts (nested; an unmatched ‹
/// hides the rest, an elided or wrapped one), data values, tokens with digits, allowed words.
QString untranslatedRest(const QString& text, const QSet<QString>& data) {
    if (data.contains(text.trimmed()))
        return {};
    QString rest;
    int depth = 0;
    for (QChar c : text) {
        if (c == kOpen) {
            ++depth;
        } else if (c == kClose) {
            if (depth > 0)
                --depth;
            else
                rest.clear(); // its ‹ was before what this string holds (a wrapped line)
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
        if (!allowedWords().contains(w) && w.size() > 1)
            bad << w;
    }
    return bad.join(' ');
}

/// A paint device whose engine keeps the text drawn on it, line by line (items on one baseline
/// joined in x order, as one font fallback can split a line into several items).
class TextRecorder : public QPaintEngine {
public:
    TextRecorder() : QPaintEngine(QPaintEngine::AllFeatures) {}
    bool begin(QPaintDevice*) override { return true; }
    bool end() override { return true; }
    void updateState(const QPaintEngineState&) override {}
    void drawPixmap(const QRectF&, const QPixmap&, const QRectF&) override {}
    void drawImage(const QRectF&, const QImage&, const QRectF&, Qt::ImageConversionFlags) override {
    }
    void drawTiledPixmap(const QRectF&, const QPixmap&, const QPointF&) override {}
    void drawPath(const QPainterPath&) override {}
    void drawPolygon(const QPointF*, int, PolygonDrawMode) override {}
    void drawLines(const QLineF*, int) override {}
    void drawRects(const QRectF*, int) override {}
    void drawEllipse(const QRectF&) override {}
    void drawPoints(const QPointF*, int) override {}
    void drawTextItem(const QPointF& p, const QTextItem& item) override {
        const QPointF at = painter()->combinedTransform().map(p);
        m_items[qRound(at.y())].insert({at.x(), item.text()});
    }
    Type type() const override { return QPaintEngine::User; }

    QStringList lines() const {
        QStringList out;
        for (const auto& [y, row] : m_items) {
            QStringList parts;
            for (const auto& [x, text] : row)
                parts << text;
            out << parts.join(' ');
        }
        return out;
    }
    void clear() { m_items.clear(); }

private:
    std::map<int, std::multimap<double, QString>> m_items;
};

class TextDevice : public QPaintDevice {
public:
    explicit TextDevice(QSize size) : m_size(size) {}
    QPaintEngine* paintEngine() const override { return &m_engine; }
    TextRecorder& recorder() const { return m_engine; }

protected:
    int metric(PaintDeviceMetric m) const override {
        switch (m) {
        case PdmWidth:
            return m_size.width();
        case PdmHeight:
            return m_size.height();
        case PdmWidthMM:
            return m_size.width() * 254 / 960;
        case PdmHeightMM:
            return m_size.height() * 254 / 960;
        case PdmDepth:
            return 32;
        case PdmNumColors:
            return INT_MAX;
        case PdmDpiX:
        case PdmDpiY:
        case PdmPhysicalDpiX:
        case PdmPhysicalDpiY:
            return 96;
        case PdmDevicePixelRatio:
            return 1;
        case PdmDevicePixelRatioScaled:
            return int(devicePixelRatioFScale());
        default:
            return 0;
        }
    }

private:
    QSize m_size;
    mutable TextRecorder m_engine;
};

/// Walks widgets and collects every shown string that is not translated.
class Walker {
public:
    explicit Walker(QSet<QString> data) : m_data(std::move(data)) {}

    void check(const QString& where, const QString& text) {
        if (text.trimmed().isEmpty())
            return;
        // TESSERA_UNTRANSLATED_DUMP=1 lists every string looked at (to see what is covered).
        static const bool dump = qEnvironmentVariableIsSet("TESSERA_UNTRANSLATED_DUMP");
        if (dump)
            qInfo().noquote() << "looked at:" << where << text.left(200);
        if (m_seen.contains(text))
            return;
        m_seen.insert(text);
        if (const QString bad = untranslatedRest(text, m_data); !bad.isEmpty())
            m_findings << QStringLiteral("%1: \"%2\" (%3)").arg(where, text.left(160), bad);
        if (const QString number = dotDecimal(text, m_data); !number.isEmpty())
            m_decimals << QStringLiteral("%1: \"%2\" (%3)").arg(where, text.left(160), number);
    }

    void walkActions(const QString& where, const QList<QAction*>& actions) {
        for (QAction* a : actions) {
            if (a->isSeparator() || m_actions.contains(a))
                continue;
            m_actions.insert(a);
            const QString w = where + QStringLiteral(" action ") + a->objectName();
            check(w, a->text());
            check(w + " tooltip", a->toolTip() == stripped(a->text()) ? QString() : a->toolTip());
            check(w + " status tip", a->statusTip());
            check(w + " what's this", a->whatsThis());
            if (a->menu())
                walkWidget(a->menu());
        }
    }

    void walkModel(const QString& where, const QAbstractItemModel* m) {
        if (!m)
            return;
        for (int c = 0; c < m->columnCount(); ++c)
            for (int role : {int(Qt::DisplayRole), int(Qt::ToolTipRole)})
                check(where + " header", m->headerData(c, Qt::Horizontal, role).toString());
        for (int r = 0; r < std::min(m->rowCount(), 200); ++r)
            for (int c = 0; c < m->columnCount(); ++c)
                for (int role : {int(Qt::DisplayRole), int(Qt::ToolTipRole)}) {
                    const QVariant v = m->data(m->index(r, c), role);
                    if (v.typeId() == QMetaType::QString)
                        check(where + QStringLiteral(" cell %1,%2").arg(r).arg(c), v.toString());
                }
    }

    void walkPlot(const QString& where, QCustomPlot* plot) {
        for (QCPAxisRect* rect : plot->axisRects())
            for (QCPAxis* axis : rect->axes())
                check(where + " axis", axis->label());
        for (int i = 0; i < plot->plottableCount(); ++i)
            if (plot->plottable(i)->visible())
                check(where + " plottable", plot->plottable(i)->name());
        for (int i = 0; i < plot->itemCount(); ++i)
            if (auto* t = qobject_cast<QCPItemText*>(plot->item(i)); t && t->visible())
                check(where + " text item", t->text());
        for (int i = 0; i < plot->plotLayout()->elementCount(); ++i)
            if (auto* t = qobject_cast<QCPTextElement*>(plot->plotLayout()->elementAt(i)))
                check(where + " title", t->text());
        // What it paints (tick labels, legend, texts).
        TextDevice device(plot->size().expandedTo(QSize(1, 1)));
        QCPPainter painter(&device);
        plot->toPainter(&painter, plot->width(), plot->height());
        painter.end();
        for (const QString& line : device.recorder().lines())
            check(where + " painted", line);
    }

    void walkScene(const QString& where, QGraphicsScene* scene) {
        if (!scene)
            return;
        const QRectF r = scene->itemsBoundingRect();
        TextDevice device(r.size().toSize().expandedTo(QSize(1, 1)));
        QPainter painter(&device);
        scene->render(&painter, QRectF(QPointF(0, 0), r.size()), r);
        painter.end();
        for (const QString& line : device.recorder().lines())
            check(where + " painted", line);
        for (QGraphicsItem* item : scene->items())
            check(where + " item tooltip", item->toolTip());
    }

    // Widgets that paint text themselves (Qt's own widgets are checked by their properties).
    void walkPainted(const QString& where, QWidget* w) {
        const QMetaObject* mo = w->metaObject();
        while (mo && QByteArray(mo->className()).startsWith("tessera::"))
            mo = mo->superClass();
        if (mo == w->metaObject() || !mo)
            return;
        const QByteArray base = mo->className();
        if (base != "QWidget" && base != "QFrame")
            return;
        TextDevice device(w->size().expandedTo(QSize(1, 1)));
        w->render(&device, QPoint(), QRegion(), QWidget::RenderFlags());
        for (const QString& line : device.recorder().lines())
            check(where + " painted", line);
    }

    void walkWidget(QWidget* w) {
        if (!w || m_widgets.contains(w))
            return;
        m_widgets.insert(w);
        const QString where =
            QString::fromLatin1(w->metaObject()->className()) +
            (w->objectName().isEmpty() ? QString() : QStringLiteral(" '%1'").arg(w->objectName()));
        if (w->isWindow())
            check(where + " title", w->windowTitle());
        check(where + " tooltip", w->toolTip());
        check(where + " status tip", w->statusTip());
        check(where + " what's this", w->whatsThis());
        check(where + " accessible name", w->accessibleName());
        check(where + " accessible description", w->accessibleDescription());
        if (auto* l = qobject_cast<QLabel*>(w))
            check(where, l->textFormat() == Qt::PlainText ? l->text() : plain(l->text()));
        if (auto* b = qobject_cast<QAbstractButton*>(w))
            check(where, b->text());
        if (auto* g = qobject_cast<QGroupBox*>(w))
            check(where, g->title());
        if (auto* d = qobject_cast<QDockWidget*>(w))
            check(where + " title", d->windowTitle());
        if (auto* t = qobject_cast<QTabBar*>(w))
            for (int i = 0; i < t->count(); ++i) {
                check(where + " tab", t->tabText(i));
                check(where + " tab tooltip", t->tabToolTip(i));
            }
        if (auto* c = qobject_cast<QComboBox*>(w)) {
            for (int i = 0; i < c->count(); ++i) {
                check(where + " item", c->itemText(i));
                check(where + " item tooltip", c->itemData(i, Qt::ToolTipRole).toString());
            }
            if (c->isEditable())
                check(where + " placeholder", c->lineEdit()->placeholderText());
        }
        if (auto* e = qobject_cast<QLineEdit*>(w))
            check(where + " placeholder", e->placeholderText());
        if (auto* e = qobject_cast<QPlainTextEdit*>(w)) {
            check(where + " placeholder", e->placeholderText());
            if (e->isReadOnly() && !generatedFile(w))
                check(where + " text", e->toPlainText());
        }
        if (auto* e = qobject_cast<QTextEdit*>(w)) {
            check(where + " placeholder", e->placeholderText());
            if (e->isReadOnly())
                check(where + " text", e->toPlainText());
        }
        if (auto* s = qobject_cast<QSpinBox*>(w)) {
            check(where + " affix", s->prefix() + ' ' + s->suffix());
            check(where + " special value", s->specialValueText());
        }
        if (auto* s = qobject_cast<QDoubleSpinBox*>(w)) {
            check(where + " affix", s->prefix() + ' ' + s->suffix());
            check(where + " special value", s->specialValueText());
        }
        if (auto* v = qobject_cast<QAbstractItemView*>(w))
            walkModel(where, v->model());
        if (auto* bar = qobject_cast<QStatusBar*>(w))
            check(where + " message", bar->currentMessage());
        if (auto* p = qobject_cast<QCustomPlot*>(w))
            walkPlot(where, p);
        else if (auto* g = qobject_cast<QGraphicsView*>(w))
            walkScene(where, g->scene());
        else
            walkPainted(where, w);
        walkActions(where, w->actions());
        if (auto* bar = qobject_cast<QMenuBar*>(w))
            walkActions(where, bar->actions());
        for (QWidget* child : w->findChildren<QWidget*>(Qt::FindDirectChildrenOnly))
            walkWidget(child);
    }

    /// Strings with letters outside a translation.
    QStringList findings() const { return m_findings; }
    /// Strings with a number written with a decimal point (the app runs in German here).
    QStringList decimals() const { return m_decimals; }

private:
    /// The export dialog's Megatron-LM arguments, DeepSpeed JSON and torchtitan TOML are files
    /// for those tools (their keys and comments are what the tools' documentation uses), as are
    /// its notes on them, which cite those keys and source files.
    static bool generatedFile(const QWidget* w) {
        static const QSet<QString> names{"exportMegatron", "exportDeepSpeed", "exportTorchtitan",
                                         "exportNotes"};
        return names.contains(w->objectName());
    }
    static QString plain(QString html) {
        static const QRegularExpression tag(QStringLiteral("<[^>]*>"));
        html.replace(tag, QStringLiteral(" "));
        for (auto [entity, c] : {std::pair{"&nbsp;", " "},
                                 {"&lt;", "<"},
                                 {"&gt;", ">"},
                                 {"&amp;", "&"},
                                 {"&quot;", "\""}})
            html.replace(QLatin1String(entity), QLatin1String(c));
        return html;
    }
    static QString stripped(QString text) {
        text.remove(QLatin1Char('&'));
        return text;
    }

    QSet<QString> m_data;
    QSet<QString> m_seen;
    QSet<const QObject*> m_widgets;
    QSet<const QObject*> m_actions;
    QStringList m_findings;
    QStringList m_decimals;
};

} // namespace

class TestUntranslated : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        qputenv("TESSERA_DATA_DIR", m_dir.path().toLocal8Bit());
        qputenv("TESSERA_EXAMPLES_DIR", TESSERA_SOURCE_DIR "/resources/examples");
        QCoreApplication::installTranslator(&m_pseudo);
    }

    // The checker itself: what it lets through and what it catches.
    void checkerCatchesWhatIsNotTranslated() {
        const QSet<QString> data{"fashion-mnist-mlp"};
        QCOMPARE(untranslatedRest(kOpen + QStringLiteral("Launch") + kClose, data), QString());
        QCOMPARE(untranslatedRest(QStringLiteral("‹Job %1› ‹running›").arg("job-3"), data),
                 QString());
        QCOMPARE(untranslatedRest(QStringLiteral("12.5 ms · 3.2 GiB · 4 GPUs · DP2×TP4"), data),
                 QString());
        QCOMPARE(untranslatedRest(QStringLiteral("‹model› fashion-mnist-mlp"), data), QString());
        QCOMPARE(untranslatedRest(QStringLiteral("‹Estimated step ti…"), data), QString());
        QCOMPARE(untranslatedRest(QStringLiteral("ready"), data), QStringLiteral("ready"));
        QCOMPARE(untranslatedRest(QStringLiteral("‹State›: succeeded"), data),
                 QStringLiteral("succeeded"));
        QCOMPARE(untranslatedRest(QStringLiteral("local worker (this machine)"), data),
                 QStringLiteral("local worker this machine"));
        QCOMPARE(untranslatedRest(QStringLiteral("3 ranks"), data), QStringLiteral("ranks"));
        QCOMPARE(untranslatedRest(QStringLiteral("训练"), data), QStringLiteral("训练"));
        // Numbers: a decimal point is caught, a German decimal comma or digit group is not.
        QCOMPARE(dotDecimal(QStringLiteral("‹test accuracy 0.861›"), data),
                 QStringLiteral("0.861"));
        QCOMPARE(dotDecimal(QStringLiteral("4.3 GB"), data), QStringLiteral("4.3"));
        QCOMPARE(dotDecimal(QStringLiteral("0,861 · 235.146 · 4,3 GB · v0.2.2 · 127.0.0.1"), data),
                 QString());
        // The pseudo-translator is what the app's tr() calls get.
        QCOMPARE(QCoreApplication::translate("tessera::MainWindow", "&Training"),
                 kOpen + QStringLiteral("&Training") + kClose);
    }

    // The app in German (dates and numbers in that locale) with runs in the history (one in each
    // final state), one local worker, a spec chosen, both tabs shown, every dialog open.
    void everyShownStringIsTranslated() {
        walkTheApp();
        if (QTest::currentTestFailed())
            return;
        for (const QString& f : m_walker->findings())
            qWarning().noquote() << "not translated:" << f;
        QVERIFY2(m_walker->findings().isEmpty(),
                 qPrintable(QStringLiteral("%1 shown string(s) not passed through tr() (listed "
                                           "above):\n  %2")
                                .arg(m_walker->findings().size())
                                .arg(m_walker->findings().mid(0, 5).join("\n  "))));
    }

    // In German every number with a fraction has a decimal comma.
    void numbersFollowTheLocale() {
        QVERIFY(m_walker);
        for (const QString& f : m_walker->decimals())
            qWarning().noquote() << "decimal point in German:" << f;
        QVERIFY2(m_walker->decimals().isEmpty(),
                 qPrintable(QStringLiteral("%1 shown number(s) not in the user's locale (listed "
                                           "above):\n  %2")
                                .arg(m_walker->decimals().size())
                                .arg(m_walker->decimals().mid(0, 5).join("\n  "))));
    }

private:
    /// Builds the window over a history with one run in each final state and a local worker,
    /// opens what can be opened and walks it all.
    void walkTheApp() {
        QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
        seedHistory();
        m_walker = std::make_unique<Walker>(resourceData());
        QStringList& out = m_problems;
        {
            AppSession session;
            MainWindow window(&session);
            window.resize(1366, 768);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            window.clusterPanel()->setWorkerCount(1);
            window.clusterPanel()->rentAction()->trigger();
            if (!QTest::qWaitFor([&] { return window.clusterPanel()->model()->readyCount() == 1; },
                                 60000))
                out << QStringLiteral("the local worker did not become ready");
            window.jobPanel()->selectSpec(QStringLiteral("fashion"));
            auto* tabs = window.findChild<QTabWidget*>(QStringLiteral("centralTabs"));
            QVERIFY(tabs);
            for (int i = tabs->count() - 1; i >= 0; --i) {
                tabs->setCurrentIndex(i);
                if (tabs->currentWidget() == window.designer() &&
                    !QTest::qWaitFor(
                        [&] {
                            return !window.designer()->estimatePanel()->stepTimeText().isEmpty();
                        },
                        30000))
                    out << QStringLiteral("the designer made no estimate");
            }
            // A lease through the Rent dialog (its table shows the lease's state and step).
            RentDialog* rent = window.rentDialog();
            rent->show();
            rent->offerView()->selectRow(0);
            rent->rentSelected();
            if (!QTest::qWaitFor([&] { return window.clusterPanel()->model()->readyCount() == 2; },
                                 60000))
                out << QStringLiteral("the rented local worker did not become ready");
            // A job's state change as the log pane shows it.
            Q_EMIT session.controller()->jobStateChanged(QStringLiteral("job-9"),
                                                         JobState::Succeeded, QString());
            QList<QWidget*> dialogs{rent, window.autoscaleDialog(), rent->openAddHost()};
            if (designer::DesignerPanel* d = window.designer())
                dialogs << d->autoPlanDialog() << d->exportDialog() << d->programDialog();
            for (QWidget* dialog : dialogs) {
                dialog->show();
                if (!QTest::qWaitForWindowExposed(dialog))
                    out << QStringLiteral("a dialog was not shown");
            }
            QApplication::processEvents();
            m_walker->walkWidget(&window);
            // Menus are top-level widgets of their own, as are the dialogs.
            for (QWidget* top : QApplication::topLevelWidgets())
                m_walker->walkWidget(top);
            for (QWidget* dialog : dialogs)
                dialog->hide();
            rent->leaseView()->selectAll();
            rent->releaseSelected();
            window.clusterPanel()->releaseAction()->trigger();
            if (!QTest::qWaitFor([&] { return window.clusterPanel()->model()->rowCount() == 0; },
                                 20000))
                out << QStringLiteral("the local worker was not released");
        }
        QLocale::setDefault(QLocale::c());
        QVERIFY2(out.isEmpty(), qPrintable(out.join("; ")));
    }

    /// Three runs of the example spec in the history: succeeded, failed and cancelled.
    static void seedHistory() {
        MetricStore store;
        if (!store.open(MetricStore::defaultPath()))
            return;
        QFile spec(QStringLiteral(TESSERA_SOURCE_DIR "/resources/examples/fashion-mnist-mlp.json"));
        spec.open(QIODevice::ReadOnly);
        const QString json = QString::fromUtf8(spec.readAll());
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        int n = 0;
        for (JobState state : {JobState::Succeeded, JobState::Failed, JobState::Cancelled}) {
            JobRecord job;
            job.id = QStringLiteral("job-%1").arg(++n);
            job.name = QStringLiteral("fashion-mnist-mlp");
            job.specJson = json;
            job.state = state;
            job.submittedMs = now - 600000 * n;
            job.startedMs = job.submittedMs + 2000;
            job.finishedMs = job.startedMs + 95500;
            job.lastStep = 120;
            job.lastLoss = 0.4213;
            job.testAccuracy = 0.8612;
            store.recordJob(job);
            MetricPoint p;
            p.jobId = job.id;
            p.seq = 1;
            p.step = 120;
            p.values = {{QStringLiteral("loss"), 0.4213},
                        {QStringLiteral("test_accuracy"), 0.8612}};
            store.addPoint(p);
        }
    }

    QTemporaryDir m_dir;
    PseudoTranslator m_pseudo;
    std::unique_ptr<Walker> m_walker;
    QStringList m_problems;
};

QTEST_MAIN(TestUntranslated)
#include "tst_untranslated.moc"
