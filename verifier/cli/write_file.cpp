#include "cli/write_file.hpp"

#include "llvm/Support/raw_ostream.h"

#include <fstream>

namespace kverify::cli {

bool writeFile(const std::string &path, const std::string &text, const std::string &command) {
  std::ofstream out(path);
  out << text;
  if (out) return true;
  llvm::errs() << command << ": error: cannot write '" << path << "'\n";
  return false;
}

}  // namespace kverify::cli
