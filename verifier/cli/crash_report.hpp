#pragma once
// A crash still ends in one line and exit status 2. kverify runs Clang and Z3 on input it
// does not control: a source macro-expanded into millions of nested terms can overflow
// even a worker's 1 GiB stack inside Clang, and an allocation can fail. Instead of dying
// by the signal (exit 139, nothing said), kverify prints which file it was reading and
// why, and exits 2.

namespace kverify::cli {

// Installs the handler for SIGSEGV, SIGBUS, SIGFPE, SIGILL and SIGABRT, and one for an
// exception nothing catches (Clang out of memory: it cannot unwind), which says what the
// exception was (once, before the workers start).
void installCrashReport();

// Gives the calling thread an alternate signal stack, so that the handler runs even when
// the thread's own stack has overflowed. Call it first in every worker thread.
void prepareThreadForCrashReport();

// While it lives, a crash on this thread names `file` (which must outlive it).
class ReadingFile {
public:
  explicit ReadingFile(const char *file);
  ~ReadingFile();
  ReadingFile(const ReadingFile &) = delete;
  ReadingFile &operator=(const ReadingFile &) = delete;

private:
  const char *outer_;
};

}  // namespace kverify::cli
