// tessera-ctl's parser, help and completion over CLI11 (see ctlcli.h). Every subcommand gets
// every option of the catalogue: those it does not list are hidden from its help and refused
// after the values are read, naming the subcommands they belong to.
#include "backend/ctl/ctlcli.h"

#include "backend/ctl/planrequest.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <set>

namespace tessera::ctl {

namespace {

/// One option of the catalogue.
struct OptionDef {
    const char* name;  ///< long name without dashes: "workers"
    const char* brief; ///< its short letter ("f" for -f) or ""
    const char* value; ///< what it takes ("A,B"), or "" for a flag
    const char* help;
    /// What bash completes its value with: "@file", "@dir", fixed words, or "" (nothing).
    const char* completes = "";
};

const std::vector<OptionDef>& catalogue() {
    static const std::vector<OptionDef> options = {
        {"workers", "", "A,B", "host:port of running tessera-workers to use (needs --token-file)"},
        {"token-file", "", "F", "file holding the workers' bearer token", "@file"},
        {"tls", "", "",
         "reach --workers over mutual TLS with the cluster CA (their certificates from "
         "tessera-ctl certify); without it, plaintext"},
        {"tls-ca", "", "F",
         "reach --workers over mutual TLS with this CA (with --tls-cert, "
         "--tls-key)",
         "@file"},
        {"tls-cert", "", "F", "this side's certificate for --tls-ca", "@file"},
        {"tls-key", "", "F", "the key of --tls-cert", "@file"},
        {"server", "", "HOST:PORT",
         "go through the tessera-server at HOST:PORT over mutual TLS, with --identity "
         "(default: $TESSERA_SERVER)"},
        {"identity", "", "D",
         "folder of client.crt, client.key and ca.crt from `tessera-ctl certify --client NAME` "
         "on the server (default: $TESSERA_IDENTITY)",
         "@dir"},
        {"client", "", "NAME",
         "a person's client certificate for tessera-server (NAME is their user name), into --out"},
        {"revoke", "", "NAME",
         "revoke every client certificate of NAME: tessera-server refuses it from its next call"},
        {"limit", "", "N", "the newest N lines (default 100)"},
        {"timeout", "", "S", "cancel the job after S seconds (exit code 1)"},
        {"local", "", "",
         "a local cluster of its own, even with serve or the app running (not with --workers)"},
        {"detach", "", "",
         "exit 0 once the job runs on --workers (or was submitted to serve or the app), "
         "leaving it running"},
        {"verbose", "", "", "also print the job's log lines and the backend's messages"},
        {"ranks", "", "N", "probe ranks (default 4; with --workers, their slots)"},
        {"rounds", "", "N",
         "run the probes N times (1 to 20, default 1) and fit their pooled records: steadier on "
         "a host whose pace wanders (shared cores)"},
        {"append", "", "",
         "pool the new records with those of the stored calibration (same workers) and refit"},
        {"rank", "", "R", "only rank R's lines (\"none\": those no rank printed)", "none"},
        {"follow", "f", "", "keep printing new lines until the job ends"},
        {"hosts", "", "H,H", "host names and IP addresses the others reach the worker at"},
        {"out", "", "D",
         "folder for worker.key (0600), worker.crt and ca.crt (client.key and client.crt with "
         "--client)",
         "@dir"},
        {"name", "", "N", "the worker's name in its certificate (default: the first host)"},
        {"json", "", "", "print JSON instead of a table"},
        {"provider", "", "P",
         "the cloud (default: lambda); through --server also local, ssh or slurm",
         "lambda local ssh slurm"},
        {"all", "", "", "every live lease and every lost instance"},
        {"to", "", "FORMAT",
         "megatron (Megatron-LM's arguments), deepspeed (ds_config.json; "
         "what it cannot hold on stderr) or torchtitan (a TOML job config)",
         "megatron deepspeed torchtitan"},
        {"model", "", "M",
         "a Hugging Face config.json, or the name of one Tessera ships (llama-2-70b, "
         "mixtral-8x7b-v0.1, deepseek-v3, ...)",
         "@file"},
        {"cluster", "", "\"NxG DEV\"",
         "the machines: N nodes of G devices of a catalog kind (default \"1x8 h100-sxm\")"},
        {"layout", "", "F", "a designer layout file (*.tessera-plan.json) instead of degrees",
         "@file"},
        {"dp", "", "N", "data-parallel degree (default: the devices TP x PP leave)"},
        {"tp", "", "N", "tensor-parallel width (default 1)"},
        {"pp", "", "N", "pipeline stages, blocks split evenly (default 1)"},
        {"micro-batch", "", "N", "sequences per micro-batch per data-parallel rank (default 1)"},
        {"global-batch", "", "N", "sequences per optimizer step (default 512)"},
        {"seq-len", "", "N", "tokens per sequence (default: the model's, at most 4096)"},
        {"zero", "", "0-3", "ZeRO stage (default 0)", "0 1 2 3"},
        {"recompute", "", "WHAT", "activation recompute (default none)", "none selective full"},
        {"sp", "", "", "sequence parallelism over the TP group"},
        {"tp-overlap", "", "",
         "TP all-gathers and reduce-scatters overlapped with the GEMMs (with --sp; Megatron-LM "
         "--tp-comm-overlap)"},
        {"precision", "", "P",
         "fp32, tf32, bf16 or fp8 (FP8 GEMMs, BF16 weights; default: bf16 for a config.json)",
         "fp32 tf32 bf16 fp8"},
        {"schedule", "", "S",
         "pipeline schedule (default 1f1b; interleaved with --vpp, zb-h1 = zero-bubble H1)",
         "1f1b gpipe interleaved zb-h1"},
        {"vpp", "", "V", "model chunks per pipeline stage, interleaved 1F1B (default 1)"},
        {"cp", "", "N", "context-parallel width: each sequence split over N ranks (default 1)"},
        {"ep", "", "N",
         "expert-parallel width: routed experts split over N of the DP x CP ranks (default 1)"},
        {"flash-attention", "", "WHEN",
         "FlashAttention: no s x s attention scores kept (default auto: on for a config.json "
         "on GPUs)",
         "auto on off"},
        {"auto", "", "", "search the layouts that fit and print the best"},
        {"top", "", "K", "how many layouts --auto prints (default 5)"},
    };
    return options;
}

const OptionDef* findOption(const std::string& name) {
    for (const OptionDef& o : catalogue()) {
        if (name == o.name) {
            return &o;
        }
    }
    return nullptr;
}

/// What the command line gave, before any check: option values by long name, flags, and the
/// positional arguments.
struct Given {
    std::map<std::string, std::string> values;
    std::set<std::string> flags;
    std::vector<std::string> args;
    bool has(const char* name) const { return values.count(name) || flags.count(name); }
    QString value(const char* name) const {
        const auto it = values.find(name);
        return it == values.end() ? QString() : QString::fromStdString(it->second);
    }
};

Failure bad(const QString& what) {
    return fail(ErrorCode::InvalidArgument, what.toStdString());
}

/// Whether `sub` takes `option`: the ones it lists, and --verbose, which every one takes.
bool lists(const Subcommand& sub, const std::string& option) {
    return option == "verbose" || std::any_of(sub.options.begin(), sub.options.end(),
                                              [&](const char* o) { return option == o; });
}

/// "a", "a and b", "a, b and c".
std::string inWords(const std::vector<std::string>& items) {
    std::string out;
    for (std::size_t i = 0; i < items.size(); ++i) {
        out += (i == 0 ? "" : i + 1 == items.size() ? " and " : ", ") + items[i];
    }
    return out;
}

/// Declares the catalogue on `app` (visible where `sub` lists them) and its arguments.
void declare(CLI::App& app, const Subcommand* sub, Given& given) {
    for (const OptionDef& o : catalogue()) {
        const std::string flags =
            (*o.brief ? std::string("-") + o.brief + "," : std::string()) + "--" + o.name;
        const bool shown = sub && lists(*sub, o.name);
        CLI::Option* opt = nullptr;
        if (*o.value) {
            opt = app.add_option_function<std::string>(
                flags, [&given, name = std::string(o.name)](const std::string& v) {
                    given.values[name] = v;
                });
            opt->type_name(o.value)->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
        } else {
            opt = app.add_flag_function(flags, [&given, name = std::string(o.name)](std::int64_t) {
                given.flags.insert(name);
            });
        }
        opt->description(o.help)->group(shown ? "Options" : "");
    }
    if (sub) {
        // Any number of arguments: the subcommand's takeArgs says what it wants (the usage line
        // shows them, CtlFormatter).
        app.add_option("ARGS", given.args)->expected(0, 1 << 20)->group("");
    }
}

/// `text` folded at spaces into lines of at most `width` characters (a longer word stands
/// alone), joined by a newline and `indent` spaces.
std::string folded(const std::string& text, std::size_t width, std::size_t indent = 0) {
    std::string out, line;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t end = text.find(' ', start);
        end = end == std::string::npos ? text.size() : end;
        const std::string word = text.substr(start, end - start);
        if (!line.empty() && line.size() + 1 + word.size() > width) {
            out += line + "\n" + std::string(indent, ' ');
            line.clear();
        }
        line += (line.empty() ? "" : " ") + word;
        start = end + 1;
    }
    return out + line;
}

/// CLI11's help with tessera-ctl's usage line ("Usage: tessera-ctl run [OPTIONS] SPEC.json"):
/// what a subcommand's arguments are is said by its table entry, not by CLI11's positional.
/// Descriptions are folded to the width of a terminal.
class CtlFormatter : public CLI::Formatter {
public:
    static constexpr std::size_t kWidth = 96;
    static constexpr std::size_t kColumn = 24;

    std::string make_option(const CLI::Option* opt, bool positional) const override {
        std::string name = "  " + make_option_name(opt, positional) + make_option_opts(opt);
        name += name.size() < kColumn ? std::string(kColumn - name.size(), ' ')
                                      : "\n" + std::string(kColumn, ' ');
        return name + folded(make_option_desc(opt), kWidth - kColumn, kColumn) + "\n";
    }
    std::string make_footer(const CLI::App* app) const override {
        std::string out;
        std::size_t start = 0;
        const std::string footer = app->get_footer();
        while (start < footer.size()) { // each line of it a paragraph
            std::size_t end = footer.find('\n', start);
            end = end == std::string::npos ? footer.size() : end;
            out += folded(footer.substr(start, end - start), kWidth) + "\n";
            start = end + 1;
        }
        return out;
    }
    std::string make_usage(const CLI::App* app, std::string) const override {
        const Subcommand* sub = findSubcommand(app->get_name());
        if (!sub) {
            return "Usage: tessera-ctl SUBCOMMAND [OPTIONS] [ARGUMENTS]\n";
        }
        return std::string("Usage: tessera-ctl ") + sub->name + " [OPTIONS]" +
               (*sub->args ? std::string(" ") + sub->args : std::string()) + "\n";
    }
    std::string make_positionals(const CLI::App*) const override { return {}; }
};

std::unique_ptr<CLI::App> buildApp(Given& given) {
    auto app = std::make_unique<CLI::App>(
        "Tessera's backend without a window: run and follow jobs, serve the data folder, rent "
        "and release machines, fit the planner and export layouts.",
        "tessera-ctl");
    app->set_version_flag("--version", std::string("tessera-ctl ") + TESSERA_VERSION);
    app->footer("tessera-ctl help SUB (or tessera-ctl SUB --help) explains one subcommand.\n"
                "Exit codes: 0 ok, 1 job failed or cancelled, 2 bad input, 3 a worker does not "
                "answer.");
    app->formatter(std::make_shared<CtlFormatter>());
    app->get_formatter()->column_width(CtlFormatter::kColumn);
    app->require_subcommand(0, 1);
    for (const Subcommand& s : subcommands()) {
        CLI::App* sub = app->add_subcommand(s.name, s.summary);
        sub->footer(s.description);
        declare(*sub, &s, given);
    }
    return app;
}

/// Index of the subcommand's word in `args` (no program name): the first word that is neither
/// an option nor an option's value; -1 when there is none.
int commandIndex(const std::vector<std::string>& args) {
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--") {
            return i + 1 < args.size() ? int(i + 1) : -1;
        }
        if (a.empty() || a[0] != '-') {
            return int(i);
        }
        if (a.rfind("--", 0) == 0 && a.find('=') == std::string::npos) {
            const OptionDef* o = findOption(a.substr(2));
            i += o && *o->value ? 1 : 0; // skip its value
        }
    }
    return -1;
}

CtlCommandLine refuse(const std::string& what, const char* sub = nullptr) {
    CtlCommandLine line;
    line.exitCode = kExitBadInput;
    line.text = "tessera-ctl: error: " + what + "\n" +
                (sub ? std::string("see tessera-ctl ") + sub + " --help for its options\n"
                     : std::string("see tessera-ctl --help for the subcommands\n"));
    return line;
}

CtlCommandLine say(const std::string& text) {
    CtlCommandLine line;
    line.text = text;
    return line;
}

/// The option values the parser gave, each checked as tessera-ctl always checked it.
Result<void> readValues(const Given& g, CtlOptions& o) {
    if (g.has("workers")) {
        for (const QString& a : g.value("workers").split(',', Qt::SkipEmptyParts)) {
            const QString addr = a.trimmed();
            bool portOk = false;
            const int port = addr.section(':', -1).toInt(&portOk);
            if (!addr.contains(':') || !portOk || port <= 0 || port > 65535) {
                return bad(QStringLiteral("--workers: '%1' is not host:port").arg(addr));
            }
            o.workers.append(addr);
        }
        if (o.workers.isEmpty()) {
            return bad(QStringLiteral("--workers needs at least one host:port"));
        }
    }
    o.tokenFile = g.value("token-file");
    bool ok = true;
    if (g.has("ranks") && ((o.ranks = g.value("ranks").toInt(&ok)) < 1 || !ok)) {
        return bad(QStringLiteral("--ranks needs a positive number of ranks"));
    }
    if (g.has("rank")) {
        const QString r = g.value("rank");
        o.rank = r == QLatin1String("none") ? -1 : r.toInt(&ok);
        if (r != QLatin1String("none") && (!ok || o.rank < 0)) {
            return bad(
                QStringLiteral("--rank needs a rank (0, 1, ...) or \"none\", not '%1'").arg(r));
        }
    }
    if (g.has("rounds") &&
        ((o.rounds = g.value("rounds").toInt(&ok)) < 1 || o.rounds > 20 || !ok)) {
        return bad(QStringLiteral("--rounds needs a number of probe rounds from 1 to 20"));
    }
    if (g.has("timeout") && ((o.timeoutSeconds = g.value("timeout").toInt(&ok)) <= 0 || !ok)) {
        return bad(QStringLiteral("--timeout needs a positive number of seconds"));
    }
    if (g.has("provider") && !QStringList{"lambda", "local", "ssh", "slurm"}.contains(
                                 o.provider = g.value("provider"))) {
        return bad(QStringLiteral("--provider: '%1' is not a provider Tessera knows (lambda; "
                                  "through a tessera-server also local, ssh, slurm)")
                       .arg(o.provider));
    }
    if (g.has("to")) {
        o.exportTo = g.value("to");
        if (!QStringList{"megatron", "deepspeed", "torchtitan"}.contains(o.exportTo)) {
            return bad(QStringLiteral("--to: '%1' is not a format Tessera exports (megatron, "
                                      "deepspeed or torchtitan)")
                           .arg(o.exportTo));
        }
    }
    for (const QString& h : g.value("hosts").split(',', Qt::SkipEmptyParts)) {
        o.hosts.append(h.trimmed());
    }
    o.outDir = g.value("out");
    o.name = g.value("name");
    o.client = g.value("client");
    o.revoke = g.value("revoke");
    if (g.has("limit") && ((o.limit = g.value("limit").toInt(&ok)) < 1 || o.limit > 10000 || !ok)) {
        return bad(QStringLiteral("--limit needs a number of lines from 1 to 10000"));
    }
    o.server = g.has("server") ? g.value("server") : QString();
    o.identityDir = g.has("identity") ? g.value("identity") : QString();
    if (!o.server.isEmpty()) {
        bool portOk = false;
        const int port = o.server.section(':', -1).toInt(&portOk);
        if (!o.server.contains(':') || !portOk || port <= 0 || port > 65535) {
            return bad(QStringLiteral("--server: '%1' is not HOST:PORT").arg(o.server));
        }
    }
    o.tlsCa = g.value("tls-ca");
    o.tlsCert = g.value("tls-cert");
    o.tlsKey = g.value("tls-key");
    o.tls = g.has("tls");
    o.verbose = g.has("verbose");
    o.append = g.has("append");
    o.follow = g.has("follow");
    o.json = g.has("json");
    o.all = g.has("all");
    o.local = g.has("local");
    o.detach = g.has("detach");
    for (const char* name : planOptionNames()) {
        if (const auto it = g.values.find(name); it != g.values.end()) {
            o.planValues[name] = it->second;
        }
        if (g.flags.count(name)) {
            o.planFlags.insert(name);
        }
    }
    return {};
}

/// Every option given belongs to `sub`; else the first that does not is named with the
/// subcommands it belongs to.
Result<void> checkPlacement(const Subcommand& sub, const Given& g) {
    for (const OptionDef& opt : catalogue()) {
        if (!g.has(opt.name) || lists(sub, opt.name)) {
            continue;
        }
        std::vector<std::string> owners;
        for (const Subcommand& s : subcommands()) {
            if (lists(s, opt.name)) {
                owners.emplace_back(s.name);
            }
        }
        return fail(ErrorCode::InvalidArgument, std::string("--") + opt.name +
                                                    " is one of the options of " + inWords(owners) +
                                                    ", not of " + sub.name + " (see tessera-ctl " +
                                                    owners.front() + " --help)");
    }
    return {};
}

/// The rules between options that hold for every subcommand listing them.
Result<void> checkTogether(const Subcommand& sub, const Given& g, const CtlOptions& o) {
    if (!o.workers.isEmpty() && !g.has("token-file")) {
        return bad(QStringLiteral("--workers needs --token-file with the workers' token"));
    }
    const int tlsFiles = int(g.has("tls-ca")) + int(g.has("tls-cert")) + int(g.has("tls-key"));
    if (tlsFiles != 0 && tlsFiles != 3) {
        return bad(
            QStringLiteral("--tls-ca, --tls-cert and --tls-key go together: give all three"));
    }
    if (tlsFiles == 3 && o.tls) {
        return bad(QStringLiteral("--tls uses the cluster CA's identity; --tls-ca/--tls-cert/"
                                  "--tls-key give another one: choose one"));
    }
    if ((o.tls || tlsFiles) && o.workers.isEmpty()) {
        return bad(QStringLiteral("--tls and --tls-ca/--tls-cert/--tls-key are for --workers"));
    }
    if (o.local && !o.workers.isEmpty()) {
        return bad(QStringLiteral("--local is an option of run without --workers"));
    }
    if (o.detach && g.has("timeout")) {
        return bad(QStringLiteral("--detach and --timeout do not go together: a detached job is "
                                  "not watched (cancel it with tessera-ctl cancel)"));
    }
    if (std::string(sub.name) == "certify") {
        const int kinds =
            int(!o.hosts.isEmpty()) + int(!o.client.isEmpty()) + int(!o.revoke.isEmpty());
        if (kinds != 1 || (o.revoke.isEmpty() && o.outDir.isEmpty()) ||
            (!o.revoke.isEmpty() && !o.outDir.isEmpty())) {
            return bad(QStringLiteral(
                "certify needs one of: --hosts H,H --out D (a worker's certificate: the names "
                "and addresses it is reached at), --client NAME --out D (a person's, for "
                "tessera-server), or --revoke NAME"));
        }
        if (!o.name.isEmpty() && o.hosts.isEmpty()) {
            return bad(QStringLiteral("--name is the worker's name, for certify --hosts"));
        }
    }
    if (!o.server.isEmpty() && (!o.workers.isEmpty() || o.local)) {
        return bad(QStringLiteral("--server goes through a tessera-server's cluster; --workers "
                                  "and --local use other workers: choose one"));
    }
    if (g.has("identity") && o.server.isEmpty()) {
        return bad(QStringLiteral("--identity is the certificate for --server HOST:PORT"));
    }
    if (std::string(sub.name) == "release" && o.all == !o.target.isEmpty()) {
        return bad(QStringLiteral("release takes one lease id (tessera-ctl leases lists them), "
                                  "or --all"));
    }
    if (std::string(sub.name) == "export" && o.exportTo.isEmpty()) {
        return bad(QStringLiteral("export needs --to megatron, deepspeed or torchtitan"));
    }
    return {};
}

/// Parses `args` (command first) as subcommand `sub`; help is printed text.
CtlCommandLine parseAs(const Subcommand& sub, const std::vector<std::string>& args) {
    Given given;
    std::unique_ptr<CLI::App> app = buildApp(given);
    std::vector<std::string> reversed(args.rbegin(), args.rend());
    try {
        app->parse(reversed);
    } catch (const CLI::CallForHelp&) {
        return say(app->help());
    } catch (const CLI::ParseError& e) {
        return refuse(e.what(), sub.name);
    }
    CtlCommandLine line;
    line.command = &sub;
    line.options.command = QString::fromLatin1(sub.name);
    // In tessera-ctl's order of old: the arguments, each option's value, where the options
    // belong, then the rules between them.
    Result<void> r = sub.takeArgs(given.args, line.options);
    if (r) {
        r = readValues(given, line.options);
    }
    if (r) {
        r = checkPlacement(sub, given);
    }
    if (r) {
        r = checkTogether(sub, given, line.options);
    }
    return r ? line : refuse(r.error().message, sub.name);
}

/// The words bash completes at an argument of `sub`: a file, a subcommand, a shell, or none.
std::string argumentCompletion(const Subcommand& sub) {
    const std::string args = sub.args;
    if (args == "SPEC.json" || args == "LAYOUT") {
        return "@file";
    }
    if (args == "[SUB]") {
        std::string names;
        for (const Subcommand& s : subcommands()) {
            names += std::string(names.empty() ? "" : " ") + s.name;
        }
        return names;
    }
    return args == "[SHELL]" ? "bash" : "";
}

/// `compgen` for a completion kind of OptionDef::completes.
std::string compgen(const std::string& kind) {
    if (kind == "@file") {
        return "compgen -f -- \"$cur\"";
    }
    if (kind == "@dir") {
        return "compgen -d -- \"$cur\"";
    }
    return "compgen -W '" + kind + "' -- \"$cur\"";
}

} // namespace

const Subcommand* findSubcommand(const std::string& name) {
    for (const Subcommand& s : subcommands()) {
        if (name == s.name) {
            return &s;
        }
    }
    return nullptr;
}

std::string helpText(const std::string& topic) {
    Given given;
    std::unique_ptr<CLI::App> app = buildApp(given);
    if (topic.empty()) {
        return app->help();
    }
    return app->get_subcommand(topic)->help();
}

CtlCommandLine parseCommandLine(const QStringList& arguments) {
    std::vector<std::string> args;
    for (qsizetype i = 1; i < arguments.size(); ++i) {
        args.push_back(arguments[i].toStdString());
    }
    const int at = commandIndex(args);
    if (at < 0) {
        const auto given = [&](const char* flag) {
            return std::find(args.begin(), args.end(), flag) != args.end();
        };
        if (given("--help") || given("-h")) {
            return say(helpText(""));
        }
        if (given("--version")) {
            return say(std::string("tessera-ctl ") + TESSERA_VERSION + "\n");
        }
        return refuse("no command given");
    }
    const std::string word = args[std::size_t(at)];
    const Subcommand* sub = findSubcommand(word);
    if (!sub) {
        std::vector<std::string> names;
        for (const Subcommand& s : subcommands()) {
            names.emplace_back(s.name);
        }
        return refuse("unknown command '" + word + "' (use " + inWords(names) + ")");
    }
    // The subcommand first, then every other word in its order (`--verbose run X` = `run X
    // --verbose`); a "--" before it is dropped.
    std::vector<std::string> ordered{word};
    for (int i = 0; i < int(args.size()); ++i) {
        if (i != at && !(i + 1 == at && args[std::size_t(i)] == "--")) {
            ordered.push_back(args[std::size_t(i)]);
        }
    }
    return parseAs(*sub, ordered);
}

std::vector<std::string> tableProblems() {
    std::vector<std::string> problems;
    std::set<std::string> used;
    for (const Subcommand& s : subcommands()) {
        for (const char* o : s.options) {
            used.insert(o);
            if (!findOption(o)) {
                problems.push_back(std::string(s.name) + " lists --" + o +
                                   ", which the catalogue lacks");
            }
        }
    }
    for (const OptionDef& o : catalogue()) {
        if (!used.count(o.name) && std::string(o.name) != "verbose") {
            problems.push_back(std::string("--") + o.name + " is taken by no subcommand");
        }
    }
    return problems;
}

std::string bashCompletion() {
    std::string values; // options that take a value: what completes it
    for (const OptionDef& o : catalogue()) {
        if (*o.value) {
            values += std::string("    --") + o.name + ") " +
                      (*o.completes ? "COMPREPLY=($(" + compgen(o.completes) + ")); " : "") +
                      "return ;;\n";
        }
    }
    std::string commands, perCommand;
    for (const Subcommand& s : subcommands()) {
        commands += std::string(commands.empty() ? "" : " ") + s.name;
        std::string opts = "--help --verbose";
        for (const char* o : s.options) {
            const OptionDef* def = findOption(o);
            opts +=
                std::string(" --") + o + (def && *def->brief ? std::string(" -") + def->brief : "");
        }
        const std::string arg = argumentCompletion(s);
        perCommand += std::string("    ") + s.name + ") opts='" + opts + "'" +
                      (arg.empty() ? "" : "; args=\"$(" + compgen(arg) + ")\"") + " ;;\n";
    }
    std::string valueOptions;
    for (const OptionDef& o : catalogue()) {
        if (*o.value) {
            valueOptions += std::string(valueOptions.empty() ? "" : "|") + "--" + o.name;
        }
    }
    return "# bash completion of tessera-ctl, generated by `tessera-ctl completion bash` from the\n"
           "# table its parser reads. Source it, or install it as\n"
           "# /usr/share/bash-completion/completions/tessera-ctl.\n"
           "_tessera_ctl() {\n"
           "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
           "    local cmd='' i w skip=0\n"
           "    for ((i = 1; i < COMP_CWORD; i++)); do\n"
           "        w=${COMP_WORDS[i]}\n"
           "        if [ $skip = 1 ]; then skip=0; continue; fi\n"
           "        case $w in\n"
           "        " +
           valueOptions +
           ") skip=1 ;;\n"
           "        -*) ;;\n"
           "        *) cmd=$w; break ;;\n"
           "        esac\n"
           "    done\n"
           "    case $prev in\n" +
           values +
           "    esac\n"
           "    if [ -z \"$cmd\" ]; then\n"
           "        COMPREPLY=($(compgen -W '" +
           commands +
           " --help --version' -- \"$cur\"))\n"
           "        return\n"
           "    fi\n"
           "    local opts='' args=''\n"
           "    case $cmd in\n" +
           perCommand +
           "    esac\n"
           "    if [[ $cur == -* ]]; then\n"
           "        COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
           "    else\n"
           "        local IFS=$'\\n'\n"
           "        COMPREPLY=($args)\n"
           "    fi\n"
           "}\n"
           "complete -o filenames -F _tessera_ctl tessera-ctl\n";
}

} // namespace tessera::ctl
