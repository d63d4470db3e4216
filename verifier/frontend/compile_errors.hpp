#pragma once
// Internal to the front end: reading a file that does not fully compile. Real projects'
// .cu files include host-only headers kverify does not ship (cublas_v2.h, mpi.h, a
// project header outside the include path) and host code that fails without them; none
// of it changes what a kernel does. So kverify skips a header it cannot find, lets clang
// recover from errors, and gives each kernel only the problems of the code it depends on:
// its body, the functions it calls, the types, globals and typedefs it uses. A kernel
// with none is analysed; the file's other errors become one note.
//
// Skipping a header can also change a kernel silently: a conditional (`#ifdef X`,
// `#if defined(X) && Y`) that tests a macro no header defined may have been meant for a
// macro of the skipped header. Such a conditional, where it overlaps code a kernel depends
// on, makes that kernel `unsupported`. Known host-library headers are trusted to define
// only macros of their own prefixes (cublas_v2.h: CUBLAS*), so a project's ENABLE_BF16
// stays an ordinary -D switch.

#include "model/model.hpp"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"

#include <memory>
#include <set>
#include <string>
#include <vector>

namespace kverify::frontend {

struct CompileProblems {
  struct Error {
    clang::SourceLocation loc;  // where clang reported it (invalid: no location)
    size_t diagnostic;          // its index in the unit's diagnostics (its notes follow it)
    bool semantic = false;      // a "Semantic Issue" (an unknown name), not a syntax error
  };
  struct SkippedHeader {
    std::string name;          // as written: "cublas_v2.h"
    clang::SourceLocation at;  // the #include
    bool angled = false;       // <...>: a library's header, not one of the project's
  };
  // A conditional directive (from #if to #endif) that tested macros no header defined,
  // after a header was skipped that might have defined them.
  struct UndefinedTest {
    clang::SourceLocation begin, end;
    std::vector<std::string> macros;
    std::string header;  // the first skipped header that could define one of them
  };
  std::vector<Error> errors;  // error-level diagnostics
  bool fatal = false;         // a fatal error stopped clang: the AST is incomplete
  std::vector<SkippedHeader> skipped_headers;
  std::vector<UndefinedTest> undefined_tests;
  std::set<size_t> used;  // diagnostics (errors) that some kernel depends on
};

// A source location as the model records it: the file and line of its expansion, as clang
// presents them (#line directives honoured); empty for an invalid location.
model::SourceRange placeOf(const clang::SourceManager &sm, clang::SourceLocation loc);

// Preprocessor callbacks that skip every #include clang cannot find (recording it) and
// record the conditionals that test macros a skipped header might have defined.
std::unique_ptr<clang::PPCallbacks> skipMissingHeaders(clang::Preprocessor &pp, CompileProblems &problems);

// What `kernel` depends on that failed: the indexes (into problems.errors) of the errors
// located in code it depends on, and the undefined-macro tests that overlap that code.
struct KernelProblems {
  std::vector<size_t> errors;
  std::vector<const CompileProblems::UndefinedTest *> tests;
};
KernelProblems problemsOf(clang::ASTContext &ctx, const clang::FunctionDecl *kernel,
                          const CompileProblems &problems);

// Gives `k` (already named and placed) the problems of `kernel`: the errors it depends on
// (each with its notes, copied from `diagnostics`, and marked used) or the conditionals
// that make it unsupported.
void attachProblems(clang::ASTContext &ctx, const clang::FunctionDecl *kernel, CompileProblems &problems,
                    const std::vector<model::Diagnostic> &diagnostics, model::Kernel &k);

// The unit's notes: each skipped header, and, when the file was analysed (`parsed`), one
// note for the errors no kernel depends on.
std::vector<model::Diagnostic> problemNotes(const clang::SourceManager &sm, const CompileProblems &problems,
                                            const std::vector<model::Diagnostic> &diagnostics, bool parsed);

}  // namespace kverify::frontend
