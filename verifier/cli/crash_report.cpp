// The crash report (see crash_report.hpp). The signal handler uses only async-signal-safe
// calls: write(2) and _exit(2).
#include "cli/crash_report.hpp"

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <initializer_list>
#include <memory>
#include <new>
#include <unistd.h>

namespace kverify::cli {
namespace {

thread_local const char *reading = nullptr;

void say(const char *text) {
  if (text) (void)!write(STDERR_FILENO, text, std::strlen(text));
}

void onCrash(int signal) {
  say("kverify: error: ");
  if (reading) {
    say(reading);
    say(": ");
  }
  say(signal == SIGABRT ? "kverify aborted (out of memory, or an internal error)"
      : signal == SIGSEGV || signal == SIGBUS
          ? "kverify crashed (a stack overflow: a source nested or macro-expanded far deeper "
            "than real code; the solver out of memory under a small --max-memory; or an internal error)"
          : "kverify crashed (an internal error)");
  say(reading ? " while reading this file; please report it with the file\n" : "; please report it\n");
  _exit(2);
}

// An exception nothing caught: thrown through Clang (built without exceptions: it cannot
// unwind), or where kverify does not expect one. Which one it was, rather than "aborted".
void onTerminate() {
  say("kverify: error: ");
  if (reading) {
    say(reading);
    say(": ");
  }
  try {
    if (std::exception_ptr e = std::current_exception()) std::rethrow_exception(e);
    say("kverify aborted (an internal error)");
  } catch (const std::bad_alloc &) {
    say("out of memory (past --max-memory: raise it, or 0 for no limit)");
  } catch (const std::exception &e) {
    say("kverify stopped on an unexpected error (");
    say(e.what());
    say(")");
  } catch (...) { say("kverify stopped on an unexpected error"); }
  say(reading ? " while reading this file\n" : "\n");
  _exit(2);
}

}  // namespace

void installCrashReport() {
  std::set_terminate(onTerminate);
  struct sigaction action{};
  action.sa_handler = onCrash;
  action.sa_flags = SA_ONSTACK | SA_RESETHAND;
  sigemptyset(&action.sa_mask);
  for (int s : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) sigaction(s, &action, nullptr);
}

namespace {
// A thread's alternate signal stack, given back when the thread ends (after the stack is
// switched off: a signal then runs on the thread's own stack).
struct AltStack {
  std::unique_ptr<char[]> bytes;
  ~AltStack() {
    if (!bytes) return;
    stack_t off{};
    off.ss_flags = SS_DISABLE;
    sigaltstack(&off, nullptr);
  }
};
thread_local AltStack alt_stack;
}  // namespace

void prepareThreadForCrashReport() {
  static constexpr size_t kBytes = 64 * 1024;
  alt_stack.bytes.reset(new (std::nothrow) char[kBytes]);
  if (!alt_stack.bytes) return;
  stack_t alt{};
  alt.ss_sp = alt_stack.bytes.get();
  alt.ss_size = kBytes;
  sigaltstack(&alt, nullptr);
}

ReadingFile::ReadingFile(const char *file) : outer_(reading) { reading = file; }
ReadingFile::~ReadingFile() { reading = outer_; }

}  // namespace kverify::cli
