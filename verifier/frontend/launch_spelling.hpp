#pragma once
// `kernel<< <grid, block>> >(args)`: nvcc reads a launch whose chevrons are spelled with
// spaces inside them (Rodinia does), Clang's lexer does not (`<<` then `<`). kverify joins
// them before Clang reads a file, keeping every other character where it was.

#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kverify::frontend {

// `text` with each `<< <` (three `<` with only white space between them, not after
// `operator`) written `<<< ` and the `>> >` that closes it `>>> `, the spaces moved after
// the chevrons; nothing when the text has none. Comments and literals are left alone.
std::optional<std::string> joinLaunchChevrons(llvm::StringRef text);

// The end of the comment (`//` to the line's end, `/* */`) or the string or character
// literal starting at `i` in `text`, or `i` when none starts there.
size_t skipCommentOrLiteral(llvm::StringRef text, size_t i);

// `fs` with joinLaunchChevrons applied to every file read through it; the xxh3 of each
// file's bytes as read (before joining) is appended to `read` when given.
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> withJoinedLaunchChevrons(
    llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fs, std::vector<uint64_t> *read = nullptr);

}  // namespace kverify::frontend
