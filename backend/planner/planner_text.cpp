// plannerText(): the planner's messages through Qt's translation system (context
// "tessera::planner"; translations/tessera_<lang>.ts).
#include "backend/planner/planner_text.h"

#include <QCoreApplication>
#include <QLocale>

#include <cmath>
#include <vector>

namespace tessera::planner::detail {

std::string plannerText(const char* source, std::initializer_list<QString> args) {
    const QString text = QCoreApplication::translate("tessera::planner", source);
    const std::vector<QString> values(args);
    // One pass, so that an argument holding "%1" (a layer's name) is not filled in again.
    QString out;
    for (qsizetype i = 0; i < text.size(); ++i) {
        qsizetype j = i + 1;
        while (j < text.size() && text[j].isDigit() && j - i <= 2) {
            ++j;
        }
        const int n = j > i + 1 ? text.mid(i + 1, j - i - 1).toInt() : 0;
        if (text[i] == QLatin1Char('%') && n >= 1 && n <= int(values.size())) {
            out += values[std::size_t(n - 1)];
            i = j - 1;
        } else {
            out += text[i];
        }
    }
    return out.toStdString();
}

QString num(long long v) {
    return QString::number(v);
}

QString num(double v, int digits) {
    return QLocale().toString(v, 'g', digits);
}

QString duration(double seconds) {
    const double a = std::abs(seconds);
    if (a >= 1.0 || a == 0.0) {
        return num(seconds, 3) + QStringLiteral(" s");
    }
    if (a >= 1e-3) {
        return num(seconds * 1e3, 3) + QStringLiteral(" ms");
    }
    return num(seconds * 1e6, 3) + QStringLiteral(" µs");
}

QString gigabytes(double bytes) {
    return QLocale().toString(bytes / 1e9, 'f', 1) + QStringLiteral(" GB");
}

} // namespace tessera::planner::detail
