#pragma once
// Writing a report file, for every command of the CLI.
#include <string>

namespace kverify::cli {

// `text` into `path`; false, and "COMMAND: error: cannot write 'PATH'" on stderr, where it
// cannot be written. `command`: "kverify", "kverify confirm", "kverify merge-report".
bool writeFile(const std::string &path, const std::string &text, const std::string &command);

}  // namespace kverify::cli
