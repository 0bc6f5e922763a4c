// tessera-ctl's command line: one declaration per subcommand (its arguments, options, help text
// and the function it runs) and one catalogue of options, read by the CLI11 parser, the help
// texts and the bash completion alike.
#pragma once

#include "backend/ctl/ctloptions.h"
#include "worker/common/error.h"

#include <QStringList>

#include <string>
#include <vector>

namespace tessera::ctl {

/// One subcommand of tessera-ctl.
struct Subcommand {
    const char* name;    ///< "run"
    const char* args;    ///< its positional arguments as usage shows them: "SPEC.json", "[JOB]"
    const char* summary; ///< one line for `tessera-ctl --help`
    /// `tessera-ctl help NAME`'s paragraph: what it does, what it prints, how it ends.
    const char* description;
    /// Long names of its options ("workers", "token-file"), from the catalogue (ctlcli.cpp).
    std::vector<const char*> options;
    /// Takes its positional arguments into `options` (arity checked with a message that says
    /// what to give). Errors: InvalidArgument.
    Result<void> (*takeArgs)(const std::vector<std::string>& args, CtlOptions& options);
    /// Runs it; returns tessera-ctl's exit code (ExitCode).
    int (*run)(const CtlOptions& options);
};

/// Every subcommand, in the order `tessera-ctl --help` lists them.
const std::vector<Subcommand>& subcommands();

/// The subcommand called `name`, or null.
const Subcommand* findSubcommand(const std::string& name);

/// The result of reading a command line: a command to run, or text to print and an exit code
/// (help and --version: stdout, 0; a refusal: stderr, kExitBadInput, "tessera-ctl: error: …"
/// and where to read more).
struct CtlCommandLine {
    const Subcommand* command = nullptr; ///< null when only `text` is to be printed
    CtlOptions options;
    std::string text;
    int exitCode = kExitOk;
};

/// Reads `arguments` (argv with the program name). The subcommand may stand after options that
/// take no value or after an option's value (`--verbose run X`, as before CLI11); every option
/// is checked against the subcommand's list, a misplaced one named with the subcommands it
/// belongs to. `help [SUB]`, `SUB --help`, `--help` and `--version` give text to print.
CtlCommandLine parseCommandLine(const QStringList& arguments);

/// `tessera-ctl --help` for an empty `topic`, else `tessera-ctl TOPIC --help` (TOPIC must be a
/// subcommand's name).
std::string helpText(const std::string& topic);

/// What is wrong with the table (empty when nothing): an option a subcommand lists that the
/// catalogue lacks, or a catalogued option no subcommand takes.
std::vector<std::string> tableProblems();

/// The bash completion script of tessera-ctl (`complete -F`): subcommands, each one's options,
/// files where a file is asked for and the fixed values of --to and --provider, all generated
/// from the same table as the parser.
std::string bashCompletion();

} // namespace tessera::ctl
