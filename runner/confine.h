// What a runner takes from the code it loads before loading it, where the kernel has Landlock (an LSM any
// process may use on itself, Linux 5.13 and later): no file written, made, removed or renamed outside its own
// temporary folder (TMPDIR, which the judge sets: a folder of the runner's own, or the sandbox's private /tmp) and
// /dev/shm where it is the runner's own (protocol/private_tmp.h), and no more than writing to /dev's
// devices (/dev/null), never to a terminal's; not /tmp, where the judge's cache may be; and,
// from Landlock's sixth version on, no signal sent to a process outside the runner's own (the judge, the other
// runners). Graded as the judge's own user without the sandbox, a submission could otherwise rewrite the judge's
// cache (a cached baseline time 1000 times longer lifts every score on the scale: docs/design.md, "isolation"), the
// repository or another file of that user's, or stop the judge. As root and under bubblewrap a runner is a user of
// its own on a read-only filesystem already; the confinement holds there too. Irreversible, inherited by every
// thread and process the submission starts. Where the kernel has no Landlock, nothing is confined but this: in
// every case no privilege is gained through exec (no_new_privs), so a set-user-ID or set-group-ID helper
// (crontab, at) cannot leave a job of the submission's to run after the grade.
//
// Reading, where the judge names what to hide (a runner of the judge's own user without the sandbox, which
// could otherwise read every file of that user's): no file read in a hidden path (the judge's cache, with the
// compiled fast reference and other participants' libraries and the cached reference answers; the answers and
// the tests) or in the judge's other temporary folders (the siblings of the runner's TMPDIR named as it is up to
// its last '-': where the fast reference is compiled to be timed beside the submission); everything else may
// be read. Landlock grants, so this is its complement: every entry of each folder on the way to a hidden path,
// but that path, is allowed beneath, and entries made later there are not. The runner's own folder and its
// library (which lies in a temporary folder of the judge's) are allowed by name.
#pragma once

#include <string>
#include <vector>

namespace hpcjudge {

struct ConfineOptions {
  // The runner runs under compute-sanitizer or ncu, whose library in the runner's process writes files of its
  // own and talks to the tool's process: /tmp may be written and read too (where the judge's default cache is
  // not: it is in the build folder), and signals are not scoped.
  bool under_tool = false;
  std::vector<std::string> hidden = {};  // paths not to be read (absolute); none: reading is not confined
  std::string library = {};              // the one file to read where it lies in a hidden path or folder
};

// Confines this process (every thread: call it before any other thread exists) as above. Returns the Landlock
// version it used (1 and up), or 0 where the kernel has none or refused.
int confine_runner(const ConfineOptions& opt = {});

// The kernel's Landlock version, or 0 where it has none (hpcjudge-runner --landlock prints it, for the tests).
int landlock_version();

}  // namespace hpcjudge
