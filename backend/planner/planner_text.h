// Planner messages (layout problems, auto-plan reasons) in the user's language.
#pragma once

#include <QString>

#include <initializer_list>
#include <string>

namespace tessera::planner::detail {

/// `source`, an English message marked with QT_TRANSLATE_NOOP("tessera::planner", "…") so that
/// lupdate collects it, translated by the installed QTranslator (the app's German .qm) and with
/// its %1, %2, … filled from `args` in order (QString::arg). Without a translator — tessera-ctl,
/// tessera-bench-plan, tests — the English source comes back. UTF-8 in and out.
std::string plannerText(const char* source, std::initializer_list<QString> args = {});

/// An integer as a message argument.
QString num(long long v);

/// A number with `digits` significant digits in the user's locale (0.00941 or 0,00941).
QString num(double v, int digits);

/// Seconds in the unit that suits them (s, ms, µs) with 3 significant digits in the user's locale:
/// "7.35 µs", "12.3 ms", "1.5 s"; 0 is "0 s".
QString duration(double seconds);

/// Bytes as gigabytes with one decimal in the user's locale: "12.3 GB".
QString gigabytes(double bytes);

} // namespace tessera::planner::detail
