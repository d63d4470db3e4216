// Finding embedded sources, their launches and `# kverify:` comments in Python text.
#include "python/cupy_kernels.hpp"
#include "python/extract.hpp"

#include <gtest/gtest.h>

using namespace kverify::python;

namespace {

std::vector<EmbeddedSource> sources(const std::string &src) {
  std::string error;
  Pos at;
  std::optional<Module> m = Module::read(src, error, at);
  EXPECT_TRUE(m) << error;
  return m ? extractSources(*m) : std::vector<EmbeddedSource>{};
}

}  // namespace

TEST(PythonExtract, SourceModuleThroughANameWithPyCudaLaunches) {
  auto s = sources(
      "from pycuda.compiler import SourceModule\n"
      "BLOCK = 256\n"
      "code = '''\n__global__ void k(float *a) { a[threadIdx.x] = 0; }\n'''\n"
      "# kverify: --assume='n > 0'\n"
      "mod = SourceModule(code)\n"
      "def run(n):\n"
      "    f = mod.get_function('k')\n"
      "    # kverify: --timeout=5\n"
      "    f(a, block=(BLOCK, 1, 1), grid=(n // BLOCK, 1))\n"
      "    f.prepared_call((2, 1), (64, 1, 1), a)\n"
      "    mod.get_function('k')(a, block=(32, 1, 1))\n");
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].api, "SourceModule");
  EXPECT_TRUE(s[0].unsupported.empty()) << s[0].unsupported;
  EXPECT_EQ(s[0].options, "--assume='n > 0'");
  // PyCUDA wraps the source in extern "C"; the kernel's text keeps its .py place
  EXPECT_EQ(s[0].cuda.text.rfind("extern \"C\" {\n", 0), 0u);
  size_t g = s[0].cuda.text.find("__global__");
  EXPECT_EQ(s[0].cuda.pos[g].line, 4u);
  EXPECT_EQ(s[0].cuda.pos[g].col, 1u);
  ASSERT_EQ(s[0].launches.size(), 3u);
  EXPECT_EQ(s[0].launches[0].first, "k");
  EXPECT_EQ(s[0].launches[0].second.optionText(),
            "--block-dim=256,1,1 --assume='gridDim.y == 1 && gridDim.z == 1'");
  EXPECT_EQ(s[0].launches[0].second.options, "--timeout=5");
  EXPECT_EQ(s[0].launches[1].second.optionText(), "--block-dim=64,1,1 --grid-dim=2,1,1");
  EXPECT_EQ(s[0].launches[2].second.optionText(),
            "--block-dim=32,1,1 --grid-dim=1,1,1");  // PyCUDA's default grid
}

TEST(PythonExtract, OptionsAboveTheStringAndItsName) {
  auto s = sources(
      "import cupy as cp\n"
      "# kverify: --block-dim=64\n"
      "SRC = 'extern \"C\" __global__ void k(int *x) {}'\n"
      "k = cp.RawKernel(\n"
      "    # kverify: --grid-dim=2\n"
      "    SRC, 'k')\n");
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].options, "--grid-dim=2 --block-dim=64");
}

TEST(PythonExtract, CuPyRawKernelAndRawModule) {
  auto s = sources(
      "import cupy as cp\n"
      "k = cp.RawKernel(r'''extern \"C\" __global__ void red(int *x) {}''', 'red')\n"
      "k((4,), (128,), (x,))\n"
      "m = cp.RawModule(code='__global__ void a(int *x) {}')\n"
      "fa = m.get_function('a')\n"
      "fa((1, 1), (32, 2), (x,))\n");
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].kernel, "red");
  ASSERT_EQ(s[0].launches.size(), 1u);
  EXPECT_EQ(s[0].launches[0].second.optionText(), "--block-dim=128,1,1 --grid-dim=4,1,1");
  ASSERT_EQ(s[1].launches.size(), 1u);
  EXPECT_EQ(s[1].launches[0].first, "a");
  EXPECT_EQ(s[1].launches[0].second.optionText(), "--block-dim=32,2,1 --grid-dim=1,1,1");
}

TEST(PythonExtract, UnreadableSourcesSayWhy) {
  auto s = sources(
      "from pycuda.compiler import SourceModule\n"
      "a = SourceModule(open('k.cu').read())\n"
      "def make(n):\n"
      "    return SourceModule('__global__ void k(int *x) { x[%d] = 0; }' % n)\n"
      "b = cupy.RawModule(path='k.cubin')\n"
      "c = cupy.RawKernel(*args)\n");
  ASSERT_EQ(s.size(), 4u);
  EXPECT_NE(s[0].unsupported.find("the call of 'open()' is not evaluated"), std::string::npos)
      << s[0].unsupported;
  EXPECT_NE(s[1].unsupported.find("'n' is a parameter of 'make()'"), std::string::npos) << s[1].unsupported;
  EXPECT_NE(s[2].unsupported.find("path="), std::string::npos);
  EXPECT_NE(s[3].unsupported.find("* or **"), std::string::npos);
  for (const EmbeddedSource &e : s) EXPECT_TRUE(e.cuda.text.empty());
}

TEST(PythonExtract, ElementwiseKernelModelsCuPysLoop) {
  auto s = sources(
      "import cupy\n"
      "k = cupy.ElementwiseKernel('float32 x, raw T w', 'T y', 'y = x * w[i]', 'scale')\n");
  ASSERT_EQ(s.size(), 1u);
  ASSERT_TRUE(s[0].unsupported.empty()) << s[0].unsupported;
  const std::string &t = s[0].cuda.text;
  EXPECT_NE(t.find("const float &x = _raw_x[i];"), std::string::npos) << t;  // CuPy's references
  EXPECT_NE(t.find("T &y = _raw_y[i];"), std::string::npos);
  EXPECT_NE(t.find("void scale(const float *_raw_x, T *w, T *_raw_y, ptrdiff_t _ind_size)"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("i += static_cast<ptrdiff_t>(blockDim.x) * gridDim.x"), std::string::npos);
  EXPECT_NE(s[0].options.find("blockDim.x <= 128"), std::string::npos);
  // the operation keeps its place in the .py text
  size_t op = t.find("y = x * w[i]");
  ASSERT_NE(op, std::string::npos);
  EXPECT_EQ(s[0].cuda.pos[op].line, 2u);
  EXPECT_EQ(s[0].cuda.pos[op].col, 58u);
}

TEST(PythonExtract, ReductionKernelModelsCuPysTree) {
  auto s = sources(
      "import cupy\n"
      "k = cupy.ReductionKernel('T x', 'T y', 'x * x', 'a + b', 'y = a', '0', 'l2')\n");
  ASSERT_EQ(s.size(), 1u);
  ASSERT_TRUE(s[0].unsupported.empty()) << s[0].unsupported;
  const std::string &t = s[0].cuda.text;
  EXPECT_NE(t.find("__shared__ _type_reduce _sdata[512];"), std::string::npos);
  EXPECT_NE(t.find("_s = (a + b);"), std::string::npos) << t;  // REDUCE(_s, _a)
  EXPECT_NE(t.find("const T x = _raw_x[_j];"), std::string::npos) << t;
  EXPECT_NE(t.find("T &y = _raw_y[_i];"), std::string::npos);
  EXPECT_NE(t.find("void l2(const T *_raw_x, T *_raw_y, ptrdiff_t _in_ind_size"), std::string::npos) << t;
  EXPECT_NE(s[0].options.find("--block-dim=512"), std::string::npos);
  EXPECT_FALSE(sources("import cupy\nk = cupy.ReductionKernel('T x', '', 'x', 'a+b', 'y=a', '0')\n")[0]
                   .unsupported.empty());
}

namespace {

// Each launch as "kernel: options @line:col" ("*" for every kernel of the source).
std::vector<std::string> launchList(const EmbeddedSource &e) {
  std::vector<std::string> out;
  for (const auto &[kernel, l] : e.launches)
    out.push_back((kernel.empty() ? "*" : kernel) + ": " + l.optionText() + " @" + std::to_string(l.at.line) +
                  ":" + std::to_string(l.at.col));
  return out;
}

const char *kPyCudaModule =
    "from pycuda.compiler import SourceModule\n"
    "mod = SourceModule('__global__ void k(float *a) { a[threadIdx.x] = 0; }')\n"
    "f = mod.get_function('k')\n"
    "f(a, block=(128, 1, 1), grid=(2, 1))\n";

}  // namespace

// A use of a kernel object that is no launch kverify reads is a launch of unknown shape.
TEST(PythonExtract, UsesThatAreNoReadLaunchAreLaunchesOfUnknownShape) {
  auto alias = sources(std::string(kPyCudaModule) + "g = f\ng(a, block=(512, 1, 1))\n");
  ASSERT_EQ(alias.size(), 1u);
  EXPECT_EQ(launchList(alias[0]),
            (std::vector<std::string>{"k: --block-dim=128,1,1 --grid-dim=2,1,1 @4:1", "k:  @5:5"}));
  auto helper = sources(std::string(kPyCudaModule) + "def run(k):\n    k(a, block=(512, 1, 1))\nrun(f)\n");
  EXPECT_EQ(launchList(helper[0]).back(), "k:  @7:5");
  auto container = sources(std::string(kPyCudaModule) + "fs = {'k': f}\n");
  EXPECT_EQ(launchList(container[0]).back(), "k:  @5:12");
  auto returned = sources(std::string(kPyCudaModule) + "def get():\n    return f\n");
  EXPECT_EQ(launchList(returned[0]).back(), "k:  @6:12");
  auto looked_up = sources(std::string(kPyCudaModule) + "getattr(sys.modules[__name__], 'f')(a)\n");
  EXPECT_EQ(launchList(looked_up[0]).back(), "k:  @5:1");
  auto dynamic = sources(std::string(kPyCudaModule) + "globals()[name](a)\n");
  EXPECT_EQ(launchList(dynamic[0]).back(), "k:  @5:1");
  // the function PyCUDA's prepare returns is the function itself
  auto prepared = sources(std::string(kPyCudaModule) + "p = f.prepare('P')\n");
  EXPECT_EQ(launchList(prepared[0]).back(), "k:  @5:5");
  // the module: a kernel by a name kverify cannot read, the module passed on, a result not bound
  auto by_name = sources(std::string(kPyCudaModule) + "mod.get_function(name)(a, block=(64, 1, 1))\n");
  EXPECT_EQ(launchList(by_name[0]).back(), "*:  @5:1");
  auto passed = sources(std::string(kPyCudaModule) + "run(mod)\n");
  EXPECT_EQ(launchList(passed[0]).back(), "*:  @5:5");
  auto unbound = sources(std::string(kPyCudaModule) + "fs = [mod.get_function('k')]\n");
  EXPECT_EQ(launchList(unbound[0]).back(), "k:  @5:7");
}

TEST(PythonExtract, AttributesAndReadLaunchesAreNoUnknownLaunch) {
  auto s = sources(std::string(kPyCudaModule) +
                   "print(f.num_regs, f.shared_size_bytes)\n"
                   "f.set_cache_config(cfg)\n"
                   "f.prepare('P')\n"
                   "f.prepared_call((2, 1), (64, 1, 1), a)\n"
                   "f.prepared_async_call((2, 1), (32, 1, 1), stream, a)\n"
                   "mod.get_function('k')(a, block=(16, 1, 1))\n"
                   "g = mod.get_function('k')\n"
                   "g(a, block=(8, 1, 1))\n"
                   "del f\n"
                   "def h(f):\n    return f\n");
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(launchList(s[0]), (std::vector<std::string>{
                                  "k: --block-dim=128,1,1 --grid-dim=2,1,1 @4:1",
                                  "k: --block-dim=64,1,1 --grid-dim=2,1,1 @8:1",
                                  "k: --block-dim=32,1,1 --grid-dim=2,1,1 @9:1",
                                  "k: --block-dim=16,1,1 --grid-dim=1,1,1 @10:1",
                                  "k: --block-dim=8,1,1 --grid-dim=1,1,1 @12:1",
                              }));
}

// After *args the positions are unknown, and **kwargs may hold PyCUDA's grid=.
TEST(PythonExtract, StarredArgumentsLeaveTheLaunchSymbolic) {
  auto s = sources(
      "import cupy as cp\n"
      "k = cp.RawKernel('extern \"C\" __global__ void k(int *x) {}', 'k')\n"
      "k(*config, (x,))\n");
  EXPECT_EQ(launchList(s[0]), (std::vector<std::string>{"k:  @3:1"}));
  auto p = sources(std::string(kPyCudaModule) + "f(a, block=(64, 1, 1), **more)\n");
  EXPECT_EQ(launchList(p[0]).back(), "k: --block-dim=64,1,1 @5:1");  // no --grid-dim=1
}

// A dimension given but not read (past 64 bits, a name kverify cannot follow) is named, so
// that the user learns the launch was analysed for every value instead.
TEST(PythonExtract, LaunchDimensionsNotReadAreNamed) {
  auto huge = sources(
      "from pycuda.compiler import SourceModule\n"
      "mod = SourceModule('__global__ void k(float *a) { a[threadIdx.x] = 0; }')\n"
      "f = mod.get_function('k')\n"
      "f(a, block=(10**23, 1, 1), grid=blocks)\n");
  ASSERT_EQ(huge.size(), 1u);
  ASSERT_EQ(huge[0].launches.size(), 1u);
  const Launch &l = huge[0].launches[0].second;
  EXPECT_EQ(l.unread, (std::vector<std::string>{"block.x", "grid"}));
  EXPECT_FALSE(l.block[0]);
  EXPECT_EQ(l.block[1], 1);
  auto read = sources(kPyCudaModule);
  ASSERT_EQ(read.size(), 1u);
  EXPECT_TRUE(read[0].launches[0].second.unread.empty());
}
