#include "confirm/replay.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <regex>
#include <sstream>
#include <thread>
#include <tuple>
#include <unistd.h>

namespace kverify::confirm {

namespace fs = std::filesystem;
using analysis::Confirmation;
using Status = analysis::Confirmation::Status;

namespace {

std::string onPath(const std::string &name) {
  const char *path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "");
  for (std::string d; std::getline(dirs, d, ':');)
    if (!d.empty() && access((d + "/" + name).c_str(), X_OK) == 0) return d + "/" + name;
  return "";
}

std::string firstExecutable(const std::vector<std::string> &candidates) {
  for (const std::string &c : candidates)
    if (!c.empty() && access(c.c_str(), X_OK) == 0) return c;
  return "";
}

// A name for one finding's folder: the file's stem, the kernel function, the finding's
// number, and a hash of the path and the kernel's name (two files of one name in different
// folders, two launches of one kernel).
std::string folderName(const model::Kernel &kernel, size_t n) {
  const std::string &file = kernel.file;
  std::string name = fs::path(file).stem().string() + "-" + kernel.function;
  for (char &c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') c = '_';
  char hash[16];
  std::snprintf(hash, sizeof hash, "%06zx", std::hash<std::string>()(file + "\n" + kernel.name) & 0xffffff);
  return name.substr(0, 80) + "-" + hash + "-" + std::to_string(n);
}

Confirmation notRun(std::string why) {
  Confirmation c;
  c.status = Status::NotRun;
  c.detail = std::move(why);
  return c;
}

// The first line of `text` that says `containing` (nvcc's first error), or else its last
// line that says something.
std::string lineWith(const std::string &text, const std::string &containing) {
  std::stringstream in(text);
  std::string best;
  for (std::string line; std::getline(in, line);) {
    if (line.find(containing) != std::string::npos) return line;
    if (line.find_first_not_of(" \t") != std::string::npos) best = line;
  }
  return best;
}

}  // namespace

std::vector<std::string> nvccArguments(const std::vector<std::string> &clang_args) {
  std::vector<std::string> out;
  for (size_t i = 0; i < clang_args.size(); ++i) {
    const std::string &a = clang_args[i];
    // paths made absolute: the program builds in its own folder
    auto path = [](const std::string &p) {
      return p.empty() ? p : fs::absolute(p).lexically_normal().string();
    };
    bool joined = a.size() > 2 && (a.rfind("-D", 0) == 0 || a.rfind("-U", 0) == 0);
    if (joined || a.rfind("-std=", 0) == 0)
      out.push_back(a);
    else if (a.size() > 2 && a.rfind("-I", 0) == 0)
      out.push_back("-I" + path(a.substr(2)));
    else if (a.size() > 8 && a.rfind("-isystem", 0) == 0)
      out.push_back("-isystem" + path(a.substr(8)));
    else if ((a == "-D" || a == "-U") && i + 1 < clang_args.size()) {
      out.push_back(a);
      out.push_back(clang_args[++i]);
    } else if ((a == "-I" || a == "-include" || a == "-isystem") && i + 1 < clang_args.size()) {
      out.push_back(a);
      out.push_back(path(clang_args[++i]));
    }
  }
  return out;
}

Toolchain findToolchain() {
  Toolchain t;
  const char *cudacxx = std::getenv("CUDACXX");
  t.nvcc = firstExecutable({cudacxx ? cudacxx : "", onPath("nvcc"), "/usr/local/cuda/bin/nvcc"});
  std::string cuda =
      t.nvcc.empty() ? "/usr/local/cuda" : fs::path(t.nvcc).parent_path().parent_path().string();
  t.sanitizer = firstExecutable({onPath("compute-sanitizer"), cuda + "/compute-sanitizer/compute-sanitizer",
                                 cuda + "/bin/compute-sanitizer",
                                 "/usr/local/cuda/compute-sanitizer/compute-sanitizer"});
  // the driver's files: without them there is no GPU to run on (the program would say so
  // too, after a build of several seconds per finding)
  if (access("/dev/nvidiactl", F_OK) != 0 && access("/proc/driver/nvidia/version", F_OK) != 0)
    t.unavailable = "no GPU (no NVIDIA driver: /dev/nvidiactl is missing)";
  else if (t.nvcc.empty())
    t.unavailable = "no nvcc (looked at $CUDACXX, PATH and /usr/local/cuda/bin)";
  else if (t.sanitizer.empty())
    t.unavailable = "no compute-sanitizer (looked on PATH and in the CUDA toolkit of " + t.nvcc + ")";
  return t;
}

Replayer::Replayer(ReplayOptions options, Toolchain tools)
    : options_(std::move(options)), tools_(std::move(tools)) {
  dir_ = options_.dir;
  if (dir_.empty() && tools_.unavailable.empty()) {
    std::string pattern = (fs::temp_directory_path() / "kverify-confirm-XXXXXX").string();
    if (mkdtemp(pattern.data())) dir_ = pattern, temporary_ = true;
  }
  if (!dir_.empty()) {
    std::error_code ec;
    fs::create_directories(dir_, ec);
    dir_ = fs::absolute(dir_, ec).string();
  }
}

Replayer::~Replayer() {
  std::error_code ec;
  if (temporary_) fs::remove_all(dir_, ec);
}

void Replayer::confirm(analysis::KernelResult &result, const model::Kernel &kernel) const {
  for (size_t i = 0; i < result.findings.size(); ++i) {
    analysis::Finding &f = result.findings[i];
    f.confirmation = confirmOne(kernel, f, folderName(kernel, i + 1));
    if (temporary_) f.confirmation.program.clear();  // removed at exit
  }
}

namespace {

std::string shellQuoted(const std::string &s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// build.sh and run.sh beside the program: what kverify runs, and what a user runs by hand
// (or under cuda-gdb: ./replay after the build).
void writeScripts(const fs::path &folder, Tool tool, const std::vector<std::string> &nvcc_args) {
  std::ofstream build(folder / "build.sh");
  build << "#!/bin/sh\n# Builds the replay for this machine's GPU (ARCH=sm_90 ./build.sh for another).\n"
        << "# Host code of the file that calls into other files links unresolved: only main() runs.\n"
        << "cd \"$(dirname \"$0\")\" && exec \"${NVCC:-nvcc}\" -arch=\"${ARCH:-native}\" -lineinfo "
        << "-Xlinker --unresolved-symbols=ignore-all -I.";
  for (const std::string &a : nvcc_args) build << " " << shellQuoted(a);
  build << " replay.cu -o replay\n";
  std::ofstream run(folder / "run.sh");
  run << "#!/bin/sh\n# Runs the replay";
  if (tool == Tool::AccessLog)
    run << " (its access log shows the collision on stdout)";
  else
    run << " under compute-sanitizer's " << toolName(tool);
  run << ", from the fill given (1-4: ./run.sh 3 after launch 2 failed).\ncd \"$(dirname \"$0\")\" && exec ";
  if (tool != Tool::AccessLog)
    run << "\"${SANITIZER:-compute-sanitizer}\" --tool " << toolName(tool) << " --print-limit 20 ";
  run << "./replay \"$@\"\n";
  build.close(), run.close();
  for (const char *script : {"build.sh", "run.sh"})
    fs::permissions(folder / script, fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                    fs::perm_options::add);
}

// A range of the .py file in a Python-embedded kernel's generated text (the bytes that came
// from it), so that the program's accesses and the sanitizer's lines are the text's.
model::SourceRange inGenerated(const model::GeneratedSource &g, const model::SourceRange &r) {
  const std::pair<unsigned, unsigned> begin{r.line, r.col}, end{r.end_line, r.end_col};
  size_t b = std::find(g.py.begin(), g.py.end(), begin) - g.py.begin();
  if (b == g.py.size()) return r;  // not from this text (a header): left as it is
  size_t e = b;
  for (size_t i = b; i < g.py.size(); ++i)
    if (g.py[i] == end) e = i;
  auto lineCol = [&](size_t offset) {
    size_t start = g.text.rfind('\n', offset == 0 ? std::string::npos : offset - 1);
    unsigned line = 1 + static_cast<unsigned>(std::count(g.text.begin(), g.text.begin() + offset, '\n'));
    return std::pair<unsigned, unsigned>{
        line, static_cast<unsigned>(offset - (start == std::string::npos ? 0 : start + 1) + 1)};
  };
  model::SourceRange out = r;
  out.file = g.name;
  std::tie(out.line, out.col) = lineCol(b);
  std::tie(out.end_line, out.end_col) = lineCol(e);
  return out;
}

}  // namespace

Confirmation Replayer::confirmOne(const model::Kernel &kernel, const analysis::Finding &file_finding,
                                  const std::string &name) const {
  ReplaySource source;
  analysis::Finding f = file_finding;
  if (kernel.generated) {  // a Python-embedded kernel: its generated text is what runs
    source = {kernel.generated->name, kernel.generated->text};
    for (analysis::AccessRef &a : f.accesses)
      if (a.range.file == kernel.file) a.range = inGenerated(*kernel.generated, a.range);
  } else {
    std::ifstream in(kernel.file, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    if (!in) return notRun("cannot read '" + kernel.file + "'");
    source = {kernel.file, text.str()};
  }
  ReplayProgram program = makeProgram(kernel, f, source);
  if (!program.not_run.empty()) return notRun(program.not_run);
  if (dir_.empty())
    return notRun(tools_.unavailable.empty() ? "cannot create a folder for the program" : tools_.unavailable);
  fs::path folder = fs::path(dir_) / name;
  std::error_code ec;
  fs::create_directories(folder, ec);
  std::ofstream(folder / "replay.cu") << program.text;
  if (!options_.user_header.empty())
    fs::copy_file(options_.user_header, folder / "kverify.h", fs::copy_options::overwrite_existing, ec);
  std::vector<std::string> args = {"-I" + fs::absolute(source.file).parent_path().string()};
  for (const std::string &a : nvccArguments(options_.compiler_args)) args.push_back(a);
  writeScripts(folder, program.tool, args);
  std::ofstream(folder / "finding.txt") << describeFinding(f);
  if (!tools_.unavailable.empty()) {
    Confirmation c = notRun(tools_.unavailable);
    c.tool = toolName(program.tool);
    c.program = (folder / "replay.cu").string();
    return c;
  }
  Confirmation c = replayFolder(folder.string(), tools_, options_.timeout_s);
  for (const std::string &n : program.notes)
    if (c.status == Status::NotReproduced) c.detail += "; " + n;
  return c;
}

std::string describeFinding(const analysis::Finding &f) {
  std::ostringstream o;
  o << "kind " << analysis::verdictName(f.kind) << "\nspace " << f.space << "\n";
  for (const analysis::AccessRef &a : f.accesses)
    o << "access " << a.range.line << " " << a.range.file << "\n";
  const analysis::Witness &w = f.witness;
  for (const auto &[key, t] : {std::pair{"thread1", w.thread1}, std::pair{"thread2", w.thread2}})
    o << key << " " << t.block_idx[0] << " " << t.block_idx[1] << " " << t.block_idx[2] << " "
      << t.thread_idx[0] << " " << t.thread_idx[1] << " " << t.thread_idx[2] << "\n";
  o << "block_dim " << w.block_dim[0] << " " << w.block_dim[1] << " " << w.block_dim[2] << "\n";
  return o.str();
}

analysis::Finding readFinding(const std::string &text) {
  analysis::Finding f;
  std::stringstream in(text);
  for (std::string key; in >> key;) {
    std::string rest;
    std::getline(in, rest);
    rest.erase(0, rest.find_first_not_of(' '));
    if (key == "kind") f.kind = analysis::verdictFromName(rest).value_or(f.kind);
    if (key == "space") f.space = rest;
    std::stringstream numbers(rest);
    analysis::Witness &w = f.witness;
    if (key == "thread1" || key == "thread2") {
      analysis::ThreadCoords &t = key == "thread1" ? w.thread1 : w.thread2;
      numbers >> t.block_idx[0] >> t.block_idx[1] >> t.block_idx[2] >> t.thread_idx[0] >> t.thread_idx[1] >>
          t.thread_idx[2];
    }
    if (key == "block_dim") numbers >> w.block_dim[0] >> w.block_dim[1] >> w.block_dim[2];
    if (key == "access") {
      analysis::AccessRef a;
      a.range.line = static_cast<unsigned>(std::strtoul(rest.c_str(), nullptr, 10));
      a.range.file = rest.substr(std::min(rest.size(), rest.find(' ') + 1));
      f.accesses.push_back(a);
    }
  }
  return f;
}

Confirmation replayFolder(const std::string &dir, const Toolchain &tools, double timeout_s) {
  fs::path folder(dir);
  std::ifstream in(folder / "finding.txt");
  std::stringstream text;
  text << in.rdbuf();
  if (!in) return notRun("cannot read " + (folder / "finding.txt").string());
  analysis::Finding f = readFinding(text.str());
  Tool tool = toolFor(f);
  Confirmation c;
  c.tool = toolName(tool);
  c.program = (folder / "replay.cu").string();
  if (!tools.unavailable.empty()) {
    c.status = Status::NotRun;
    c.detail = tools.unavailable;
    return c;
  }
  std::error_code ec;
  bool fresh = fs::exists(folder / "replay") &&
               fs::last_write_time(folder / "replay", ec) > fs::last_write_time(folder / "replay.cu", ec);
  ProcessResult built;
  if (!fresh)
    built = runProcess({"env", "NVCC=" + tools.nvcc, "sh", (folder / "build.sh").string()},
                       std::max(120.0, timeout_s));
  if (!fresh && (!built.started || built.timed_out || built.exit_code != 0)) {
    std::string why = built.timed_out ? "nvcc ran out of time" : lineWith(built.output, "error");
    c.status = Status::NotRun;
    c.detail = "nvcc could not build the replay: " + why;
    c.output = built.output;
    return c;
  }
  // a launch that failed (exit 5) ends its process: the next fill runs in a new one
  ProcessResult ran;
  Confirmation seen;
  static const std::regex failed("kverify-replay: launch ([0-9]+) failed");
  for (int from = 1; from <= 4;) {
    ProcessResult next = runProcess(
        {"env", "SANITIZER=" + tools.sanitizer, "sh", (folder / "run.sh").string(), std::to_string(from)},
        timeout_s);
    ran.started = next.started, ran.exit_code = next.exit_code, ran.timed_out = next.timed_out;
    ran.output += next.output;
    seen = interpret(tool, f, ran, timeout_s);
    std::smatch last;
    for (auto it = std::sregex_iterator(next.output.begin(), next.output.end(), failed);
         it != std::sregex_iterator(); ++it)
      last = *it;
    if (next.exit_code != 5 || last.empty() || seen.status == Status::Confirmed) break;
    from = std::stoi(last[1]) + 1;
  }
  std::ofstream(folder / "output.txt") << ran.output;
  seen.program = c.program;
  return seen;
}

std::vector<Confirmation> replayFolders(const std::vector<std::string> &folders, const Toolchain &tools,
                                        double timeout_s, unsigned jobs) {
  std::vector<Confirmation> out(folders.size());
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i; (i = next++) < folders.size();) out[i] = replayFolder(folders[i], tools, timeout_s);
  };
  std::vector<std::thread> workers;
  for (unsigned j = 1; j < std::max(1u, jobs); ++j) workers.emplace_back(work);
  work();
  for (std::thread &t : workers) t.join();
  return out;
}

size_t replayReport(analysis::RunResult &run, const Toolchain &tools, double timeout_s, unsigned jobs) {
  std::vector<analysis::Finding *> todo;
  std::vector<std::string> folders;
  for (analysis::KernelResult &k : run.kernels)
    for (analysis::Finding &f : k.findings)
      if (!f.confirmation.program.empty()) {
        todo.push_back(&f);
        folders.push_back(fs::path(f.confirmation.program).parent_path().string());
      }
  std::vector<Confirmation> seen = replayFolders(folders, tools, timeout_s, jobs);
  for (size_t i = 0; i < todo.size(); ++i) todo[i]->confirmation = seen[i];
  return todo.size();
}

}  // namespace kverify::confirm
