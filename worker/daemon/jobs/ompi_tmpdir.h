// A session-directory tree of its own for the Open MPI programs each worker daemon starts.
//
// Without it the orteds of several workers on one host share /tmp/ompi.<host>.<uid>/jf.<family>/
// and race creating and removing it: "mkdir ... No such file or directory" in orte_init, then
// mpirun exits 213 with "ORTE does not know how to route a message" (1 in 5 four-worker runs on
// one host). mpirun forwards its own orte_tmpdir_base to every orted on the command line, so the
// environment alone is not enough: the Exec'd orted's argument is replaced as well.
#pragma once

#include <string>
#include <vector>

namespace tessera::daemon {

/// "/tmp/tsr-<daemon pid>", made 0700 on the first call; "" when it cannot be made (Open MPI's
/// default is used then). Short on purpose: PMIx puts its Unix sockets below it and socket paths
/// are limited to 107 bytes.
std::string ompiTmpdir();

/// Environment entries for a program this daemon starts: {"OMPI_MCA_orte_tmpdir_base=<dir>"},
/// or none when ompiTmpdir() is "".
std::vector<std::string> ompiTmpdirEnv();

/// In an orted command line (as mpirun passes it, "-mca" or "--mca" NAME VALUE): sets the value of
/// the MCA parameter `name` to `value`. Returns true when it was there; else argv is unchanged.
bool replaceMcaParam(std::vector<std::string>& argv, const std::string& name,
                     const std::string& value);

/// replaceMcaParam(argv, "orte_tmpdir_base", dir).
bool replaceOrteTmpdir(std::vector<std::string>& argv, const std::string& dir);

/// Removes ompiTmpdir()'s folder (at the daemon's end, after its programs ended).
void removeOmpiTmpdir();

/// Removes the /tmp/tsr-<pid> folders of daemons that are gone (killed before they could remove
/// their own: no /proc/<pid>); a folder of a live process is kept. Returns how many were removed.
/// `root` is the folder to sweep (/tmp; tests pass their own).
int removeStaleOmpiTmpdirs(const std::string& root = "/tmp");

} // namespace tessera::daemon
