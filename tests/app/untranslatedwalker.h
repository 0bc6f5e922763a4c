// The checker of tst_untranslated: walks widgets (texts, titles, tool tips, placeholders, combo
// items, model headers and cells, chart axes and legends, what custom widgets and the designer's
// canvas paint) with PseudoTranslator installed, and collects every shown string with a letter
// outside ‹…› once numbers, unit symbols, data values and a short allow-list are taken out, and
// every number written with a decimal point (the test runs the app in German).
#pragma once

#include <QList>
#include <QObject>
#include <QSet>
#include <QString>
#include <QStringList>

class QAbstractItemModel;
class QAction;
class QCustomPlot;
class QGraphicsScene;
class QWidget;

namespace tessera::test {

/// Job spec names, model and device names, file names: user data read from resources/, shown as
/// they are in the files; and this machine's host name (local workers report it).
QSet<QString> resourceData();

/// What of `text` is not translated: the text without its ‹…› parts (nested; an unmatched ‹
/// hides the rest, an elided or wrapped one), `data` values, paths, tokens with digits and
/// allowed words (units, DP/TP/PP, product names, key names). Empty when all of it is.
QString untranslatedRest(const QString& text, const QSet<QString>& data);

/// A number written with a '.' decimal point in `text` ("0.861"), outside `data` values and
/// paths; versions and addresses ("v0.2.2", "127.0.0.1") are not numbers, nor are German digit
/// groups ("235.146"). Empty when there is none.
QString dotDecimal(const QString& text, const QSet<QString>& data);

/// Walks widgets once each and collects what untranslatedRest() and dotDecimal() find in every
/// shown string (each distinct string is looked at once). The export dialog's views of Megatron-LM
/// arguments, ds_config.json and torchtitan TOML are files for those tools and are skipped while
/// they show one; the reason a format cannot express the layout and the DeepSpeed notes are
/// checked. TESSERA_UNTRANSLATED_DUMP=1 logs every string looked at.
class UntranslatedWalker {
public:
    /// `data`: values shown as they are (resourceData() and what the test adds).
    explicit UntranslatedWalker(QSet<QString> data) : m_data(std::move(data)) {}

    /// Walks `w`, its actions and menus and its children, unless it was walked before.
    void walkWidget(QWidget* w);
    /// Walks `w` and its children again, after what they show changed.
    void walkAgain(QWidget* w);

    /// Strings with letters outside a translation, "where: "text" (words)" each.
    QStringList findings() const { return m_findings; }
    /// Strings with a number written with a decimal point, "where: "text" (number)" each.
    QStringList decimals() const { return m_decimals; }

private:
    void check(const QString& where, const QString& text);
    void walkActions(const QString& where, const QList<QAction*>& actions);
    void walkModel(const QString& where, const QAbstractItemModel* m);
    void walkPlot(const QString& where, QCustomPlot* plot);
    void walkScene(const QString& where, QGraphicsScene* scene);
    /// Widgets that paint text themselves (Qt's own widgets are checked by their properties).
    void walkPainted(const QString& where, QWidget* w);
    /// Adds `o` to `walked` until `o` is destroyed.
    void remember(QSet<const QObject*>& walked, const QObject* o);

    QSet<QString> m_data;
    QSet<QString> m_seen;
    QSet<const QObject*> m_widgets;
    QSet<const QObject*> m_actions;
    QObject m_guard; ///< context of the destroyed() connections: they end with the walker
    QStringList m_findings;
    QStringList m_decimals;
};

} // namespace tessera::test
