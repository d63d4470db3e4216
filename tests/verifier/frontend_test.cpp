// Extraction tests: each fixture under tests/fixtures/{frontend,seed003} is parsed and
// the model checked, mostly through its C-like text form (model/print.hpp).
#include "frontend/frontend.hpp"
#include "frontend/launch_spelling.hpp"
#include "model/print.hpp"
#include "model/walk.hpp"

#include <array>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>

#include <unistd.h>

using namespace kverify;
using model::Stmt;

namespace {

model::TranslationUnitModel parse(const std::string &fixture) {
  frontend::Options options;
  options.print_diagnostics = false;
  return frontend::parseFile(std::string(KVERIFY_FIXTURES) + "/" + fixture, options);
}

const model::Kernel &kernel(const model::TranslationUnitModel &tu, const std::string &name) {
  for (const model::Kernel &k : tu.kernels)
    if (k.name == name) return k;
  ADD_FAILURE() << "no kernel " << name << " in " << tu.file;
  static const model::Kernel none;
  return none;
}

namespace st = model::stmt;

// Every statement of kind K in `body`, nested ones included, in program order.
template <class K>
std::vector<const Stmt *> stmtsOf(const model::Body &body) {
  std::vector<const Stmt *> out;
  model::forEachStmt(body, [&](const Stmt &s) {
    if (s.is<K>()) out.push_back(&s);
  });
  return out;
}
template <class K>
std::vector<const K *> all(const model::Kernel &k) {
  std::vector<const K *> out;
  for (const Stmt *s : stmtsOf<K>(k.body)) out.push_back(s->as<K>());
  return out;
}

// "write sdata[(i64)tid]" for each access, in program order.
std::vector<std::string> accesses(const model::Kernel &k) {
  std::vector<std::string> out;
  for (const st::Access *s : all<st::Access>(k)) {
    std::string line = std::string(model::accessKindName(s->kind)) + " " + k.arrays[s->array].name + "[" +
                       model::toString(s->index) + "]";
    if (s->count != 1) line += " x" + std::to_string(s->count);
    out.push_back(line);
  }
  return out;
}

const model::Array *array(const model::Kernel &k, const std::string &name) {
  for (const model::Array &a : k.arrays)
    if (a.name == name) return &a;
  return nullptr;
}

bool contains(const std::string &haystack, const std::string &needle) {
  return haystack.find(needle) != std::string::npos;
}

#define EXPECT_HAS(text, needle) \
  EXPECT_TRUE(contains(text, needle)) << "missing: " << needle << "\nin:\n" << text

}  // namespace

TEST(Frontend, BuiltinsAndMultiDimensionalIndices) {
  auto tu = parse("frontend/builtins_indices.cu");
  ASSERT_TRUE(tu.parsed);
  const model::Kernel &k = kernel(tu, "builtins_indices");
  std::string t = model::toText(k);
  EXPECT_HAS(t, "z = (i32)(blockIdx.z * blockDim.z + threadIdx.z)");
  EXPECT_HAS(t, "lane = (i32)(threadIdx.x % (u32)warpSize)");
  EXPECT_HAS(t, "total = (i32)(gridDim.x * gridDim.y * gridDim.z)");
  EXPECT_EQ(accesses(k), std::vector<std::string>{"write out[(i64)((z * height + y) * width + x)]"});
  ASSERT_EQ(k.params.size(), 3u);
  EXPECT_EQ(k.params[1].name, "width");
  EXPECT_EQ(k.params[1].type, model::Type::i32());
  EXPECT_FALSE(k.params[1].array.has_value());
  ASSERT_TRUE(k.params[0].array.has_value());
  EXPECT_EQ(k.arrays[*k.params[0].array].space, model::AddressSpace::Global);
}

TEST(Frontend, SharedArraysStaticMultiDimExternAndScalar) {
  auto tu = parse("frontend/shared_arrays.cu");
  ASSERT_TRUE(tu.parsed);
  const model::Kernel &k = kernel(tu, "shared_arrays");
  const model::Array *flat = array(k, "flat"), *tile = array(k, "tile"), *count = array(k, "count"),
                     *dyn = array(k, "dyn");
  ASSERT_TRUE(flat && tile && count && dyn);
  EXPECT_EQ(flat->space, model::AddressSpace::Shared);
  EXPECT_EQ(flat->size, 128u);
  EXPECT_EQ(tile->dims, (std::vector<uint64_t>{16, 17}));
  EXPECT_EQ(tile->size, 272u);
  EXPECT_TRUE(count->dims.empty());
  EXPECT_EQ(count->size, 1u);
  EXPECT_TRUE(dyn->is_extern);
  EXPECT_FALSE(dyn->size.has_value());
  EXPECT_EQ(array(k, "dyn2"), nullptr) << "extern __shared__ arrays alias one array";
  std::vector<std::string> a = accesses(k);
  EXPECT_EQ(
      a, (std::vector<std::string>{
             "write count[0]", "write flat[(i64)t]", "write tile[(i64)threadIdx.y * 17 + (i64)threadIdx.x]",
             "write dyn[(i64)t]", "write dyn[(i64)t * 2] x2", "read flat[(i64)(127 - t)]", "read count[0]",
             "read tile[(i64)threadIdx.x * 17 + (i64)threadIdx.y]", "write out[(i64)t]"}));
}

TEST(Frontend, AccessFormsPointersFieldsAndReadModifyWrite) {
  auto tu = parse("frontend/access_forms.cu");
  ASSERT_TRUE(tu.parsed);
  const model::Kernel &k = kernel(tu, "access_forms");
  EXPECT_TRUE(k.unsupported.empty());
  EXPECT_EQ(accesses(k),
            (std::vector<std::string>{"write a[(i64)i]",                 // *(a + i)
                                      "write a[p.offset]",               // *p, p = &a[2 * i]
                                      "write a[p.offset + (i64)1]",      // p[1]
                                      "read pairs[(i64)i * 8] x4",       // pairs[i].a: bytes 0..3 of 8
                                      "write pairs[(i64)i * 8 + 4] x4",  // pairs[i].b: bytes 4..7
                                      "read args.src[(i64)(i + 1)]",     // args.src[i + 1]
                                      "write args.dst[(i64)i]",          // args.dst[i]
                                      "read counts[(i64)i]", "write counts[(i64)i]",              // +=
                                      "read counts[(i64)(i + 1)]", "write counts[(i64)(i + 1)]",  // ++
                                      "write a[q.offset + (i64)0]"}));
  std::string t = model::toText(k);
  EXPECT_HAS(t, "p.offset = (i64)(2 * i)");
  EXPECT_HAS(t, "q.offset = q.offset + (i64)i");
  EXPECT_HAS(t, "if (i < args.n) {");
}

TEST(Frontend, GuardsFromIfConditionalShortCircuitReturnBreakContinue) {
  auto tu = parse("frontend/guards.cu");
  ASSERT_TRUE(tu.parsed);
  const model::Kernel &k = kernel(tu, "guards");
  std::string t = model::toText(k);
  EXPECT_HAS(t, "if (i >= n) {\n    return\n  }");
  EXPECT_HAS(t, "} else {\n    write a[(i64)i]");
  // ?: with a load: the load happens only under the condition.
  EXPECT_HAS(t, "cond = i > 4\n  if (cond) {\n    read b[(i64)i]");
  EXPECT_HAS(t, "v = cond ? opaque#");
  // &&: the right operand's load only when the left one holds; ||: when it does not.
  EXPECT_HAS(t, "lhs = i + 1 < n\n  if (lhs) {\n    read b[(i64)(i + 1)]");
  EXPECT_HAS(t, "if (lhs && opaque#");
  EXPECT_HAS(t, "lhs = i == 0\n  if (!lhs) {\n    read b[(i64)(i - 1)]");
  EXPECT_EQ(all<st::Return>(k).size(), 1u);
  EXPECT_EQ(all<st::Break>(k).size(), 1u);
  EXPECT_EQ(all<st::Continue>(k).size(), 1u);
}

TEST(Frontend, LoopsForWhileDoAndMemoryConditions) {
  auto tu = parse("frontend/loops.cu");
  ASSERT_TRUE(tu.parsed);
  const model::Kernel &k = kernel(tu, "loops");
  std::vector<const st::Loop *> loops = all<st::Loop>(k);
  ASSERT_EQ(loops.size(), 4u);
  EXPECT_EQ(loops[0]->kind, model::LoopKind::For);
  EXPECT_EQ(model::toString(loops[0]->cond), "s < n");
  ASSERT_EQ(loops[0]->step.size(), 1u);
  EXPECT_EQ(model::toString(loops[0]->step[0].as<st::Assign>()->value), "s * 2");
  EXPECT_EQ(loops[1]->kind, model::LoopKind::While);
  EXPECT_EQ(loops[2]->kind, model::LoopKind::Do);
  EXPECT_EQ(model::toString(loops[2]->cond), "k < 4");
  // A condition that reads memory is evaluated at the top of the body.
  EXPECT_EQ(loops[3]->cond, nullptr);
  ASSERT_GE(loops[3]->body.size(), 2u);
  EXPECT_TRUE(loops[3]->body[0].is<st::Access>());
  ASSERT_TRUE(loops[3]->body[1].is<st::If>());
  EXPECT_TRUE(loops[3]->body[1].as<st::If>()->then_body[0].is<st::Break>());
}

TEST(Frontend, BarriersOfEachKindAndFences) {
  auto tu = parse("frontend/barriers.cu");
  ASSERT_TRUE(tu.parsed);
  const model::Kernel &k = kernel(tu, "barriers");
  std::vector<std::string> seen;
  for (const st::Barrier *s : all<st::Barrier>(k))
    seen.push_back(std::string(model::barrierKindName(s->kind)) + " " + s->what +
                   (s->mask ? " mask=" + model::toString(s->mask) : "") + (s->predicate ? " pred" : ""));
  EXPECT_EQ(seen, (std::vector<std::string>{"block __syncthreads", "block __syncthreads_count pred",
                                            "block __syncthreads_and pred", "block __syncthreads_or pred",
                                            "warp __syncwarp mask=4294967295", "warp __syncwarp mask=65535",
                                            "block __syncthreads", "block __syncthreads"}));
  std::vector<const st::Fence *> fences = all<st::Fence>(k);
  ASSERT_EQ(fences.size(), 3u);
  EXPECT_EQ(fences[0]->scope, model::Scope::Block);
  EXPECT_EQ(fences[2]->scope, model::Scope::System);
  EXPECT_HAS(model::toText(k),
             "thread_rank.result = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x");

  const model::Kernel &g = kernel(tu, "grid_barrier");
  std::vector<const st::Barrier *> gb = all<st::Barrier>(g);
  ASSERT_EQ(gb.size(), 1u);
  EXPECT_EQ(gb[0]->kind, model::BarrierKind::Grid);
}

TEST(Frontend, AtomicsOfEveryFamily) {
  auto tu = parse("frontend/atomics.cu");
  ASSERT_TRUE(tu.parsed);
  const model::Kernel &k = kernel(tu, "atomics");
  std::vector<std::string> ops;
  for (const st::Access *s : all<st::Access>(k))
    if (s->kind == model::AccessKind::Atomic)
      ops.push_back(std::string(model::atomicOpName(s->atomic)) + "/" + model::scopeName(s->scope));
  EXPECT_EQ(ops, (std::vector<std::string>{"add/device", "sub/device", "exch/device", "min/device",
                                           "max/device", "inc/device", "dec/device", "cas/device",
                                           "and/device", "or/device", "xor/device", "add/device",
                                           "add/device", "add/block", "add/system", "add/device"}));
  EXPECT_HAS(model::toText(k), "atomic bins[(i64)(t % 64)] add");
  EXPECT_HAS(model::toText(k), " add_block ");
  EXPECT_EQ(array(k, "bins")->space, model::AddressSpace::Shared);
}

TEST(Frontend, DeviceFunctionsAreInlined) {
  auto tu = parse("frontend/device_calls.cu");
  ASSERT_TRUE(tu.parsed);
  const model::Kernel &k = kernel(tu, "device_calls");
  EXPECT_TRUE(k.unsupported.empty());
  std::string t = model::toText(k);
  EXPECT_HAS(t, "inlined clamp_index {\n    clamp_index.i = i\n    clamp_index.n = n");
  EXPECT_HAS(t, "clamp_index.result = 0\n      return");
  EXPECT_HAS(t, "k = clamp_index.result");
  EXPECT_HAS(t, "inlined bump {\n    k = k + 3\n  }");  // a reference parameter aliases k
  EXPECT_EQ(accesses(k),
            (std::vector<std::string>{"read in[load_twice.src.offset + (i64)clamp_index.result]",
                                      "read in[load_twice.src.offset + (i64)load_twice.i]",
                                      "write out[store_pair.dst.offset + (i64)store_pair.j]",
                                      "write out[store_pair.dst.offset + (i64)(store_pair.j + 1)]",
                                      "write s[store_pair.dst.offset + (i64)store_pair.j]",
                                      "write s[store_pair.dst.offset + (i64)(store_pair.j + 1)]"}));
  EXPECT_EQ(all<st::Inlined>(k).size(), 6u);  // clamp_index twice, store_pair twice
}

TEST(Frontend, ConditionalOverLvaluesIsASelect) {
  auto tu = parse("frontend/conditional_lvalue.cu");
  ASSERT_TRUE(tu.parsed);
  const model::Kernel &k = kernel(tu, "conditional_lvalue");
  EXPECT_TRUE(k.unsupported.empty()) << model::toText(k);
  std::string t = model::toText(k);
  EXPECT_HAS(
      t, "clampf.result = clampf.v < clampf.lo ? clampf.lo : clampf.v > clampf.hi ? clampf.hi : clampf.v");
  // Each branch's load happens only on its side.
  EXPECT_HAS(t, "if (cond) {\n    read a[(i64)i]");
  EXPECT_HAS(t, "} else {\n    read a[(i64)0]");
}

TEST(Frontend, LocalArraysAreThreadPrivate) {
  auto tu = parse("frontend/local_arrays.cu");
  ASSERT_TRUE(tu.parsed);
  const model::Kernel &k = kernel(tu, "local_arrays");
  const model::Array *buf = array(k, "buf"), *m = array(k, "m");
  ASSERT_TRUE(buf && m);
  EXPECT_EQ(buf->space, model::AddressSpace::Local);
  EXPECT_EQ(m->dims, (std::vector<uint64_t>{2, 3}));
  EXPECT_HAS(model::toText(k), "write buf[(i64)k]");
}

TEST(Frontend, LoadsAndCallsAreTypedOpaqueValues) {
  auto tu = parse("frontend/opaque_values.cu");
  ASSERT_TRUE(tu.parsed);
  const model::Kernel &k = kernel(tu, "opaque_values");
  EXPECT_TRUE(k.unsupported.empty());
  const st::Assign *b = nullptr;
  for (const st::Assign *s : all<st::Assign>(k))
    if (s->local.name == "b") b = s;
  ASSERT_TRUE(b);
  EXPECT_EQ(b->local.type, model::Type::integer(8, false));
  EXPECT_TRUE(b->value->is<model::expr::Opaque>());
  EXPECT_EQ(b->value->type, model::Type::integer(8, false)) << "a load keeps its C width";
  std::string t = model::toText(k);
  EXPECT_HAS(t, "__mul24.a << 8 >> 8");
  EXPECT_HAS(t, "min.a < 7 ? min.a : 7");
  EXPECT_HAS(t, "read out[(i64)(t + 1)]");  // __ldg
  EXPECT_HAS(t, "write out[(i64)opaque#");  // index loaded from memory
  // Shuffles, votes and texture reads are values, not accesses.
  EXPECT_EQ(all<st::Access>(k).size(), 4u);
}

TEST(Frontend, AssumeFromKvAssume) {
  auto tu = parse("frontend/assume.cu");
  ASSERT_TRUE(tu.parsed);
  const model::Kernel &k = kernel(tu, "assume");
  std::vector<const st::Assume *> as = all<st::Assume>(k);
  ASSERT_EQ(as.size(), 2u);
  EXPECT_EQ(model::toString(as[0]->cond), "(u32)n == 2 * blockDim.x");
  EXPECT_EQ(model::toString(as[1]->cond), "blockDim.x <= 256");
}

TEST(Frontend, AssumeForallReadsContentsNotMemory) {
  auto tu = parse("frontend/assume_forall.cu");
  ASSERT_TRUE(tu.parsed);
  const model::Kernel &k = kernel(tu, "offsets");
  std::vector<const st::Assume *> as = all<st::Assume>(k);
  ASSERT_EQ(as.size(), 2u);
  ASSERT_EQ(as[0]->forall.size(), 1u);
  EXPECT_EQ(as[0]->forall[0].type, model::Type::i64());
  EXPECT_EQ(model::toString(as[0]->hi), "(i64)rows");
  EXPECT_EQ(model::toString(as[0]->cond), "0 <= bin[i] && bin[i] < 64");
  ASSERT_EQ(as[1]->forall.size(), 2u);
  EXPECT_EQ(model::toString(as[1]->cond), "kv_i_ >= kv_j_ || row_ptr[kv_i_] <= row_ptr[kv_j_]");
  // the premises are no accesses: only the kernel's own two reads and its write
  EXPECT_EQ(all<st::Access>(k).size(), 3u);
  EXPECT_TRUE(k.unsupported.empty());
  // a call in the condition is no longer a statement about memory
  const model::Kernel &c = kernel(tu, "with_call");
  ASSERT_EQ(c.unsupported.size(), 1u);
  EXPECT_EQ(c.unsupported[0].construct, "KV_ASSUME_FORALL");
}

TEST(Frontend, TemplateKernelsPerInstantiationAndSkipped) {
  auto tu = parse("frontend/templates.cu");
  ASSERT_TRUE(tu.parsed);
  ASSERT_EQ(tu.kernels.size(), 2u);
  EXPECT_EQ(array(kernel(tu, "scale<128, float>"), "cache")->size, 128u);
  const model::Kernel &i = kernel(tu, "scale<64, int>");
  EXPECT_EQ(array(i, "cache")->size, 64u);
  EXPECT_EQ(array(i, "cache")->elem, model::Type::i32());
  EXPECT_HAS(model::toText(i), "read cache[(i64)(63 - threadIdx.x)]");
  ASSERT_EQ(tu.skipped.size(), 1u);
  EXPECT_EQ(tu.skipped[0].name, "never_used");
}

TEST(Frontend, HeaderKernelTemplatesInstantiatedByTheFile) {
  auto tu = parse("frontend/header_instantiation.cu");
  ASSERT_TRUE(tu.parsed);
  std::vector<std::string> names;
  for (const model::Kernel &k : tu.kernels) names.push_back(k.name);
  std::sort(names.begin(), names.end());
  // <int, Twice, 128> is reached twice (explicitly instantiated hk::run, the launch in
  // launch()). The header's unused_kernel is not this file's business.
  // The two launches of <int, Twice, 128> have different grids: one model per launch. A
  // header's kernel analysed under a launch of this file is named with that launch.
  EXPECT_EQ(names, (std::vector<std::string>{
                       "hk::tile_kernel<int, hk::Twice, 128> (launch at header_instantiation.cu:9:3)",
                       "hk::tile_kernel<int, hk::Twice, 128> (launch at header_kernels.cuh:29:3)",
                       "hk::tile_kernel<int, hk::Twice, 64> (launch at header_instantiation.cu:10:3)",
                       "local_kernel"}));
  EXPECT_TRUE(tu.skipped.empty());
  for (const char *name : {"hk::tile_kernel<int, hk::Twice, 128> (launch at header_instantiation.cu:9:3)",
                           "hk::tile_kernel<int, hk::Twice, 64> (launch at header_instantiation.cu:10:3)"}) {
    const model::Kernel &k = kernel(tu, name);
    EXPECT_HAS(k.file, "include/header_kernels.cuh");
    EXPECT_EQ(k.range.file, k.file);
    EXPECT_EQ(k.range.line, 12u);             // the definition in the header
    EXPECT_EQ(k.options, "--block-dim=128");  // the comment above it in the header
    EXPECT_TRUE(k.unsupported.empty()) << model::toText(k);
  }
  EXPECT_EQ(array(kernel(tu, "hk::tile_kernel<int, hk::Twice, 64> (launch at header_instantiation.cu:10:3)"),
                  "tile")
                ->size,
            64u);
  EXPECT_HAS(model::toText(
                 kernel(tu, "hk::tile_kernel<int, hk::Twice, 128> (launch at header_instantiation.cu:9:3)")),
             "read tile[(i64)(127 - threadIdx.x)]");
  const model::Kernel &local = kernel(tu, "local_kernel");
  EXPECT_HAS(local.file, "header_instantiation.cu");
  EXPECT_EQ(local.options, "");
}

TEST(Frontend, AHeaderParsedItselfListsItsTemplatesAsSkipped) {
  auto tu = parse("frontend/include/header_kernels.cuh");
  ASSERT_TRUE(tu.parsed);
  EXPECT_TRUE(tu.kernels.empty());
  std::vector<std::string> skipped;
  for (const auto &s : tu.skipped) skipped.push_back(s.name);
  EXPECT_EQ(skipped, (std::vector<std::string>{"hk::tile_kernel", "hk::unused_kernel"}));
}

TEST(Frontend, StructParametersFlattenByPath) {
  auto tu = parse("frontend/struct_params.cu");
  ASSERT_TRUE(tu.parsed);
  const model::Kernel &k = kernel(tu, "struct_params");
  std::vector<std::string> names;
  for (const model::Param &p : k.params) {
    names.push_back(p.name);
    EXPECT_EQ(p.position, 0u);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"o.in.ptr", "o.in.len", "o.scale", "o.dims"}));
  EXPECT_EQ(accesses(k), (std::vector<std::string>{"read o.dims[(i64)1]", "write o.in.ptr[(i64)t]"}));
  EXPECT_HAS(model::toText(k), "if (t < o.in.len) {");
}

TEST(Frontend, VectorTypesWideAccesses) {
  auto tu = parse("frontend/vector_types.cu");
  ASSERT_TRUE(tu.parsed);
  const model::Kernel &k = kernel(tu, "vector_types");
  EXPECT_TRUE(k.unsupported.empty());
  EXPECT_EQ(accesses(k), (std::vector<std::string>{"read in[(i64)t * 4] x4", "write out[(i64)t * 4] x4",
                                                   "write out[(i64)p.y]"}));
  EXPECT_HAS(model::toText(k), "p.y = t + 1");
}

TEST(Frontend, OptionsComments) {
  auto tu = parse("frontend/options_comment.cu");
  ASSERT_TRUE(tu.parsed);
  EXPECT_EQ(tu.options, "--block-dim=256");
  EXPECT_EQ(kernel(tu, "with_options").options, "--assume='n == 2*blockDim.x'");
  EXPECT_EQ(kernel(tu, "without_options").options, "");
}

TEST(Frontend, HostCodeParsesAndOnlyKernelsAreModelled) {
  auto tu = parse("frontend/host_code.cu");
  ASSERT_TRUE(tu.parsed);
  ASSERT_EQ(tu.kernels.size(), 1u);
  EXPECT_EQ(accesses(tu.kernels[0]), (std::vector<std::string>{"read v[(i64)i]", "write v[(i64)i]"}));
  EXPECT_EQ(tu.kernels[0].range.line, 8u);
}

TEST(Frontend, SystemHeadersCoexistWithTheDevicePrelude) {
  auto tu = parse("frontend/system_headers.cu");
  ASSERT_TRUE(tu.parsed) << (tu.diagnostics.empty() ? "" : tu.diagnostics[0].message);
  const model::Kernel &k = kernel(tu, "system_headers");
  EXPECT_TRUE(k.unsupported.empty()) << model::toText(k);
  EXPECT_EQ(accesses(k), (std::vector<std::string>{"read a[(i64)i]", "write a[(i64)i]"}));
  const model::Kernel &heap = kernel(tu, "device_heap");
  ASSERT_FALSE(heap.unsupported.empty());
  EXPECT_EQ(heap.unsupported[0].construct, "device memory function");
}

// --- goto, memcpy/memset, base classes, re-bound pointers ---------------------------

std::string unsupportedConstructs(const model::Kernel &k) {
  std::string out;
  for (const model::Unsupported &u : k.unsupported)
    out += u.construct + "@" + std::to_string(u.range.line) + ";";
  return out;
}

TEST(Frontend, ArrayFieldOfAStructLocalIsThreadPrivateMemory) {
  auto tu = parse("frontend/struct_array_fields.cu");
  ASSERT_TRUE(tu.parsed);
  const model::Kernel &k = kernel(tu, "struct_local_field");
  EXPECT_TRUE(k.unsupported.empty()) << model::toText(k);
  const model::Array *av = array(k, "a.v"), *pv = array(k, "p.v");
  ASSERT_TRUE(av && pv) << model::toText(k);
  EXPECT_EQ(av->space, model::AddressSpace::Local);
  EXPECT_EQ(av->dims, (std::vector<uint64_t>{4}));
  EXPECT_EQ(pv->dims, (std::vector<uint64_t>{3}));
  // The copy from memory is one read of the whole element (16 bytes); the brace
  // initializer of the array field still loads out[0].
  EXPECT_EQ(accesses(k), (std::vector<std::string>{"read in[(i64)threadIdx.x * 16] x16", "read a.v[(i64)c]",
                                                   "read out[(i64)0]", "read p.v[(i64)2]",
                                                   "write out[(i64)threadIdx.x]"}));
}

TEST(Frontend, ArrayFieldItemsOfElementsInMemoryAreTheirBytes) {
  auto tu = parse("frontend/struct_array_fields.cu");
  ASSERT_TRUE(tu.parsed);
  // `V a[4];` (trivial default construction) and `a[u].v[c]` on the local array of structs:
  // arrays of structs are addressed in bytes, 16 to an element
  const model::Kernel &local = kernel(tu, "array_of_structs");
  EXPECT_TRUE(local.unsupported.empty()) << model::toText(local);
  ASSERT_TRUE(array(local, "a"));
  EXPECT_EQ(array(local, "a")->space, model::AddressSpace::Local);
  EXPECT_TRUE(array(local, "a")->by_bytes);
  EXPECT_EQ(array(local, "a")->size, 64u);
  EXPECT_EQ(accesses(local),
            (std::vector<std::string>{"read in[(i64)(threadIdx.x + (u32)u) * 16] x16",
                                      "write a[(i64)u * 16] x16", "read a[(i64)u * 16 + (i64)c * 4] x4",
                                      // a[1].v[k]: k may be negative, reaching into a[0]
                                      "read a[(i64)1 * 16 + (i64)k * 4] x4", "write out[(i64)threadIdx.x]"}));
  // Pair: v at byte 4, 16 bytes. v[2] is bytes 12..15 of element t, v[3] (one past) the
  // key of element t + 1; through a byte buffer, v[1] is the four bytes 8..11.
  const model::Kernel &shared = kernel(tu, "field_of_shared_element");
  EXPECT_TRUE(shared.unsupported.empty()) << model::toText(shared);
  EXPECT_EQ(accesses(shared),
            (std::vector<std::string>{"write s[(i64)threadIdx.x * 16 + 4 + (i64)2 * 4] x4",
                                      "write s[(i64)threadIdx.x * 16 + 4 + (i64)3 * 4] x4",
                                      "write s[p.offset + 4 + (i64)0 * 4] x4",
                                      "write bytes[q.offset + (i64)threadIdx.x * 16 + 4 + (i64)1 * 4] x4"}));
}

TEST(Frontend, FieldsOfElementsAreAtTheirRecordLayoutOffsets) {
  auto tu = parse("frontend/struct_fields_nested.cu");
  ASSERT_TRUE(tu.parsed);
  const model::Kernel &k = kernel(tu, "struct_fields_nested");
  EXPECT_EQ(unsupportedConstructs(k), "");
  EXPECT_EQ(accesses(k),
            (std::vector<std::string>{
                "write o[(i64)threadIdx.x * 20 + 8 + (i64)0 * 4] x4",           // inner at 4, v at 4 in it
                "write g[(i64)threadIdx.x * 16 + (i64)1 * 8 + (i64)0 * 4] x4",  // m[1][0]
                "write k[(i64)threadIdx.x * 9 + 1 + (i64)1 * 4] x4",            // packed: v at byte 1
                "write s[f.offset + (i64)1 * 4] x4",                            // f = s[t].v; f[1]
                "write d[(i64)threadIdx.x * 12 + 4 + (i64)1 * 2] x2",           // base B at byte 4 of D
                "write d[pb.offset + (i64)0 * 2] x2"}));                        // pb = &d[t] as a B *
  // .y of a uchar4 view of an int array: one byte of a 4-byte element
  const model::Kernel &narrow = kernel(tu, "narrow_component");
  EXPECT_EQ(unsupportedConstructs(narrow), "part of an element smaller than the elements of its array@43;");
}

TEST(Frontend, AccessThroughAConditionalPointerIsOneAccessPerArm) {
  auto tu = parse("frontend/conditional_pointer_access.cu");
  ASSERT_TRUE(tu.parsed);
  const model::Kernel &k = kernel(tu, "conditional_pointer_store");
  EXPECT_TRUE(k.unsupported.empty()) << model::toText(k);
  std::string t = model::toText(k);
  EXPECT_HAS(t, "cond = i < n\n  if (cond) {\n    write p[(i64)i]");
  EXPECT_HAS(t, "} else {\n    write q[(i64)i]");
  // a compound assignment reads and writes on each side
  EXPECT_HAS(t,
             "if (cond) {\n    read p[(i64)(i + 1)]  // (i & 1 ? p : q)[i + 1] @12:3 #5\n"
             "    write p[(i64)(i + 1)]");
  EXPECT_HAS(t,
             "} else {\n    read q[(i64)(i + 1)]  // (i & 1 ? p : q)[i + 1] @12:3 #7\n"
             "    write q[(i64)(i + 1)]");
  // a load is the select of the two arms' loads
  EXPECT_HAS(t, "x = cond ? opaque#11 : opaque#12");
  EXPECT_HAS(t, "write p[0]");  // *(i < 4 ? p : q)
  EXPECT_HAS(t, "write q[0]");
  // nested: three arrays, three arms
  EXPECT_HAS(t, "} else {\n    cond = i == 1\n    if (cond) {\n      write q[(i64)n]");
  EXPECT_HAS(t, "    } else {\n      write r[(i64)n]");
  EXPECT_EQ(all<st::Access>(k).size(), 13u) << t;

  // pointer fields of a struct parameter, reached through `this` (the look-back scan)
  const model::Kernel &m = kernel(tu, "conditional_pointer_member");
  EXPECT_TRUE(m.unsupported.empty()) << model::toText(m);
  EXPECT_HAS(model::toText(m), "if (put.cond) {\n      write st.a[(i64)put.i]");
  EXPECT_HAS(model::toText(m), "} else {\n      write st.b[(i64)put.i]");

  // a pointer variable initialised by such a choice holds its array in a selector
  const model::Kernel &v = kernel(tu, "conditional_pointer_variable");
  EXPECT_EQ(unsupportedConstructs(v), "");
  std::string tv = model::toText(v);
  EXPECT_HAS(tv, "r.array = n > 0 ? 0 : 1");
  EXPECT_HAS(tv, "if (r.array == 1) {\n    write q[r.offset + (i64)threadIdx.x]");
  EXPECT_HAS(tv, "} else {\n    write p[r.offset + (i64)threadIdx.x]");
  // an increment through a choice reads and writes the chosen element
  EXPECT_HAS(tv, "if (n > 0) {\n    write p[(i64)threadIdx.x]");
  EXPECT_EQ(all<st::Access>(v).size(), 6u) << tv;

  // a reference keeps the array and the index it was bound to; a member is the element
  const model::Kernel &r = kernel(tu, "conditional_pointer_reference");
  EXPECT_EQ(unsupportedConstructs(r), "");
  std::string tr = model::toText(r);
  EXPECT_HAS(tr, "e.cond = r.array == 1\n");
  EXPECT_HAS(tr, "if (e.cond) {\n    write q[e.index]");
  EXPECT_HAS(tr, "inlined bump {\n    bump.v.index = r.offset + (i64)i\n    read p[bump.v.index]");
  EXPECT_HAS(tr, "if (f.cond) {\n    write d[f.index]");
  EXPECT_HAS(tr, "} else {\n    write c[f.index]");
}

TEST(Frontend, GotoOutOfLoopsIsABreakOrContinue) {
  auto tu = parse("frontend/goto_lowering.cu");
  ASSERT_TRUE(tu.parsed);
  const model::Kernel &one = kernel(tu, "goto_break");
  EXPECT_EQ(unsupportedConstructs(one), "");
  EXPECT_EQ(all<st::Break>(one).size(), 1u);
  EXPECT_EQ(model::toText(one).find("goto."), std::string::npos) << "no flag for one level";
  // Three loops deep: a flag set before breaking the innermost, tested after each inner
  // loop; the target loop's test clears it.
  const model::Kernel &deep = kernel(tu, "goto_nested_break");
  EXPECT_EQ(unsupportedConstructs(deep), "");
  std::string t = model::toText(deep);
  EXPECT_HAS(t, "goto.found = false\n  for (i < n) {");
  EXPECT_HAS(t,
             "goto.found = true\n          break\n        }\n      }\n      if (goto.found) {\n        "
             "break\n      }\n    } step {\n      j = j + 1");
  EXPECT_HAS(t,
             "if (goto.found) {\n      goto.found = false\n      break\n    }\n  } step {\n    i = i + 1\n  "
             "}\n  write out[(i64)threadIdx.x] i + j");
  // A label on the last, empty statement of the outer body: a continue of the outer loop.
  const model::Kernel &cont = kernel(tu, "goto_nested_continue");
  EXPECT_EQ(unsupportedConstructs(cont), "");
  EXPECT_HAS(model::toText(cont),
             "if (goto.next) {\n      goto.next = false\n      continue\n    }\n    write out[(i64)i] 2");
  // A label right after the inner loop: a plain break of it.
  const model::Kernel &inner = kernel(tu, "goto_label_after_inner_loop");
  EXPECT_EQ(unsupportedConstructs(inner), "");
  EXPECT_EQ(all<st::Break>(inner).size(), 1u);
  EXPECT_EQ(all<st::Continue>(inner).size(), 0u);
  // Jumping over a loop, or to a label whose statement runs: unsupported.
  EXPECT_EQ(unsupportedConstructs(kernel(tu, "goto_not_enclosing")), "goto@40;");
  EXPECT_EQ(unsupportedConstructs(kernel(tu, "goto_label_does_something")), "goto@61;");
}

TEST(Frontend, MemcpyAndMemsetOfAConstantLengthAreRanges) {
  auto tu = parse("frontend/memcpy_memset.cu");
  ASSERT_TRUE(tu.parsed);
  const model::Kernel &k = kernel(tu, "copies");
  EXPECT_EQ(unsupportedConstructs(k), "");
  EXPECT_EQ(accesses(k),
            (std::vector<std::string>{"read in[(i64)(2 * t)] x4", "write out[(i64)(4 * t)] x4",
                                      "read in[0] x6", "write out[(i64)t] x6",             // len = 24 bytes
                                      "read in[(i64)t] x2", "write pairs[(i64)t * 4] x5",  // 5 bytes
                                      "write out[(i64)t]",                                 // memset
                                      "read in[(i64)t]",                                   // into x
                                      "write out[(i64)0]"}));
  // Into the scalar local x: x gets an unknown value right after the read.
  auto into_x = std::find_if(k.body.begin(), k.body.end(), [](const Stmt &s) {
    return s.is<st::Access>() && s.as<st::Access>()->text == "memcpy(&x, &in[t], sizeof(int))";
  });
  ASSERT_NE(into_x, k.body.end());
  ASSERT_NE(into_x + 1, k.body.end());
  const st::Assign *x = into_x[1].as<st::Assign>();
  ASSERT_TRUE(x);
  EXPECT_EQ(x->local.name, "x");
  EXPECT_TRUE(x->value->is<model::expr::Opaque>());
  const model::Kernel &v = kernel(tu, "variable_length");
  EXPECT_EQ(unsupportedConstructs(v), "memcpy@23;memset@24;");
  EXPECT_TRUE(accesses(v).empty());
}

TEST(Frontend, FieldsOfBaseClassesAreFieldsOfTheStruct) {
  auto tu = parse("frontend/base_class_fields.cu");
  ASSERT_TRUE(tu.parsed);
  const model::Kernel &k = kernel(tu, "base_fields");
  EXPECT_EQ(unsupportedConstructs(k), "");
  std::vector<std::string> names;
  for (const model::Param &p : k.params) names.push_back(p.name);
  EXPECT_EQ(names, (std::vector<std::string>{"a.data", "a.n", "a.factor", "a.shift"}));
  EXPECT_EQ(accesses(k), std::vector<std::string>{"write a.data[(i64)(i + a.shift)]"});
  std::string t = model::toText(k);
  EXPECT_HAS(t, "b.n = a.n\n  b.factor = a.factor");  // an aggregate initializer of a base
  EXPECT_HAS(t, "length.result = a.n");               // a derived object as a `const Span &`
  EXPECT_EQ(unsupportedConstructs(kernel(tu, "virtual_base")), "virtual base class@25;");
}

TEST(Frontend, PointerReboundInStraightLineCodeFollowsTheNewObject) {
  auto tu = parse("frontend/pointer_rebinding.cu");
  ASSERT_TRUE(tu.parsed);
  const model::Kernel &k = kernel(tu, "straight_line");
  EXPECT_EQ(unsupportedConstructs(k), "");
  EXPECT_EQ(accesses(k),
            (std::vector<std::string>{
                "write a[p.offset + (i64)t]", "write tile[p.offset + (i64)t]", "write out[p.offset + (i64)t]",
                "write a[store_twice.dst.offset + (i64)store_twice.i]",
                "write b[store_twice.dst.offset + (i64)store_twice.i]", "write b[a.offset + (i64)t]"}));
  EXPECT_HAS(model::toText(k), "p.offset = (i64)4");
  const model::Kernel &after = kernel(tu, "after_a_branch");
  EXPECT_EQ(unsupportedConstructs(after), "");
  EXPECT_EQ(accesses(after), std::vector<std::string>{"write b[p.offset + (i64)threadIdx.x]"});
  // Two paths merge with different targets, after an if or an early return: the variable
  // holds which array in a selector, 0 (its first array) from the start of its scope.
  const model::Kernel &branch = kernel(tu, "under_a_branch");
  EXPECT_EQ(unsupportedConstructs(branch), "");
  std::string tb = model::toText(branch);
  EXPECT_HAS(tb, "{\n  p.array = 0\n  p.offset = 0\n  if (n > 4) {\n    p.array = 1\n");
  EXPECT_EQ(accesses(branch), (std::vector<std::string>{"write b[p.offset + (i64)threadIdx.x]",
                                                        "write a[p.offset + (i64)threadIdx.x]"}));
  const model::Kernel &returned = kernel(tu, "returned_pointer");
  EXPECT_EQ(unsupportedConstructs(returned), "");
  std::string tr = model::toText(returned);
  EXPECT_HAS(tr, "inlined pick {\n    pick.result.array = 0\n");
  EXPECT_HAS(tr,
             "    pick.result.array = 1\n    pick.result.offset = pick.b.offset\n  }\n"
             "  p.array = pick.result.array\n  p.offset = pick.result.offset");
  // Variables a loop copies into one another get all their arrays before the loop
  const model::Kernel &swap = kernel(tu, "swapped_in_a_loop");
  EXPECT_EQ(unsupportedConstructs(swap), "");
  std::string ts = model::toText(swap);
  EXPECT_HAS(ts, "  src.array = 0\n  dst.array = 1\n  for (");
  EXPECT_HAS(ts,
             "    tmp.array = src.array\n    tmp.offset = src.offset\n"
             "    src.array = dst.array\n    src.offset = dst.offset\n"
             "    dst.array = tmp.array\n    dst.offset = tmp.offset\n");
  // So does a variable a loop re-points at another buffer after reading it
  const model::Kernel &loop = kernel(tu, "in_a_loop");
  EXPECT_EQ(unsupportedConstructs(loop), "");
  EXPECT_HAS(model::toText(loop),
             "  i = 0\n  p.array = 0\n  for (i < n) {\n    if (p.array == 1) {\n"
             "      write b[p.offset + (i64)threadIdx.x]");
}

// --- unsupported constructs --------------------------------------------------------

struct UnsupportedCase {
  const char *fixture;
  const char *construct;
  unsigned line;
};

class Unsupported : public testing::TestWithParam<UnsupportedCase> {};

TEST_P(Unsupported, IsReportedWithItsLocation) {
  auto tu = parse(std::string("frontend/") + GetParam().fixture);
  ASSERT_TRUE(tu.parsed);
  ASSERT_FALSE(tu.kernels.empty());
  bool found = false;
  for (const model::Kernel &k : tu.kernels)
    for (const model::Unsupported &u : k.unsupported)
      if (u.construct == GetParam().construct) {
        found = true;
        EXPECT_EQ(u.range.line, GetParam().line);
        EXPECT_TRUE(contains(u.range.file, GetParam().fixture));
      }
  EXPECT_TRUE(found) << "no '" << GetParam().construct << "' in " << model::toText(tu);
}

INSTANTIATE_TEST_SUITE_P(
    Frontend, Unsupported,
    testing::Values(
        UnsupportedCase{"unsupported_recursion.cu", "recursion", 2},
        UnsupportedCase{"unsupported_function_pointer.cu", "function pointer loaded from memory", 5},
        UnsupportedCase{"unsupported_inline_asm.cu", "inline asm", 4},
        UnsupportedCase{"unsupported_goto.cu", "goto", 8},
        UnsupportedCase{"unsupported_dynamic_parallelism.cu", "dynamic parallelism", 5},
        UnsupportedCase{"unsupported_external_call.cu", "unknown external function with pointer arguments",
                        7},
        UnsupportedCase{"unsupported_switch.cu", "switch", 3},
        UnsupportedCase{"unsupported_surface_write.cu", "surface write", 4},
        UnsupportedCase{"unsupported_pointer_select.cu", "pointer that may point into different arrays", 8},
        UnsupportedCase{"unsupported_struct_pointer_field_select.cu",
                        "pointer that may point into different arrays", 9}),
    [](const testing::TestParamInfo<UnsupportedCase> &info) {
      std::string n = info.param.fixture;
      return n.substr(12, n.size() - 15);  // between "unsupported_" and ".cu"
    });

TEST(Frontend, ScalarExternalCallIsAnOpaqueValue) {
  auto tu = parse("frontend/unsupported_external_call.cu");
  ASSERT_TRUE(tu.parsed);
  const model::Kernel &k = tu.kernels[0];
  ASSERT_EQ(k.unsupported.size(), 1u) << "scalar_only() is fine, fill() is not";
}

// --- bad input -------------------------------------------------------------------

TEST(FrontendBadInput, EmptyFileHasNoKernels) {
  auto tu = parse("frontend/bad_empty.cu");
  EXPECT_TRUE(tu.parsed);
  EXPECT_TRUE(tu.kernels.empty());
}

TEST(FrontendBadInput, SyntaxErrorsGiveClangDiagnostics) {
  auto tu = parse("frontend/bad_syntax.cu");
  EXPECT_FALSE(tu.parsed);
  EXPECT_TRUE(tu.kernels.empty());
  ASSERT_FALSE(tu.diagnostics.empty());
  EXPECT_EQ(tu.diagnostics[0].severity, "error");
  EXPECT_EQ(tu.diagnostics[0].range.line, 2u);
  EXPECT_HAS(tu.diagnostics[0].message, "expected ')'");
}

TEST(FrontendBadInput, MissingIncludeIsSkippedAndNoted) {
  auto tu = parse("frontend/missing_include.cu");
  ASSERT_TRUE(tu.parsed);
  EXPECT_TRUE(kernel(tu, "k").errors.empty());
  ASSERT_EQ(tu.notes.size(), 1u);
  EXPECT_HAS(tu.notes[0].message, "header 'no_such_header.cuh' not found: skipped");
  EXPECT_EQ(tu.notes[0].range.line, 2u);
}

// Errors in host code that no kernel depends on are one note; a kernel that uses a type of
// the missing header has the error and is not modelled.
TEST(FrontendBadInput, HostErrorsDoNotStopIndependentKernels) {
  auto tu = parse("frontend/missing_header_host_errors.cu");
  ASSERT_TRUE(tu.parsed);
  const model::Kernel &scale = kernel(tu, "scale");
  EXPECT_TRUE(scale.errors.empty());
  EXPECT_FALSE(scale.body.empty());
  const model::Kernel &apply = kernel(tu, "apply");
  ASSERT_FALSE(apply.errors.empty());
  EXPECT_HAS(apply.errors[0].message, "unknown type name 'solver_params'");
  EXPECT_HAS(apply.errors.back().message, "headers not found and skipped: 'solver_api.h'");
  EXPECT_TRUE(apply.body.empty());
  ASSERT_EQ(tu.notes.size(), 2u);
  EXPECT_HAS(tu.notes[1].message, "1 error in code no kernel depends on (host code) ignored");
  EXPECT_HAS(tu.notes[1].message, "solver_handle");
}

// A conditional that tests a macro no header defined, after a header was skipped, may have
// been meant for that header: the kernel whose code it selects is unsupported.
TEST(FrontendBadInput, ConditionalOnAMacroOfASkippedHeaderIsUnsupported) {
  auto tu = parse("frontend/missing_header_ifdef.cu");
  ASSERT_TRUE(tu.parsed);
  const model::Kernel &tiled = kernel(tu, "tiled");
  ASSERT_EQ(tiled.unsupported.size(), 1u);
  EXPECT_EQ(tiled.unsupported[0].construct, "skipped header");
  EXPECT_HAS(tiled.unsupported[0].detail, "TILE_WIDE");
  EXPECT_HAS(tiled.unsupported[0].detail, "'tile_config.h'");
  EXPECT_EQ(tiled.unsupported[0].range.line, 8u);
  EXPECT_TRUE(kernel(tu, "plain").unsupported.empty());
}

// Errors and no kernel: the errors may have hidden one (a project header is missing), so
// the file does not parse.
TEST(FrontendBadInput, ErrorsAndNoKernelDoNotParse) {
  auto tu = parse("frontend/host_only_errors.cu");
  EXPECT_FALSE(tu.parsed);
  EXPECT_TRUE(tu.kernels.empty());
}

// A kernel launched two ways from the file's host code is modelled once per launch shape,
// each with its launch: an integer block is 1-D (its size unknown here), dim3(16, 16) 2-D.
TEST(Frontend, HostLaunchesGiveEachKernelItsLaunch) {
  auto tu = parse("frontend/two_launch_shapes.cu");
  ASSERT_TRUE(tu.parsed);
  ASSERT_EQ(tu.kernels.size(), 2u);
  const model::Kernel &one_d = kernel(tu, "reverse_tiles (launch at two_launch_shapes.cu:14:5)");
  ASSERT_TRUE(one_d.launch.has_value());
  EXPECT_EQ(one_d.launch->block, (std::array<std::optional<uint64_t>, 3>{std::nullopt, 1, 1}));
  EXPECT_EQ(one_d.launch->grid, (std::array<std::optional<uint64_t>, 3>{16, 1, 1}));
  const model::Kernel &two_d = kernel(tu, "reverse_tiles (launch at two_launch_shapes.cu:15:5)");
  ASSERT_TRUE(two_d.launch.has_value());
  EXPECT_EQ(two_d.launch->block, (std::array<std::optional<uint64_t>, 3>{16, 16, 1}));
}

// dim3 fields assigned after the declaration: those are unknown, the others kept.
TEST(Frontend, HostLaunchDim3WithFieldsAssigned) {
  auto tu = parse("frontend/dim3_fields_assigned.cu");
  ASSERT_TRUE(tu.parsed);
  const model::Kernel &k = kernel(tu, "transpose_tile");
  ASSERT_TRUE(k.launch.has_value());
  EXPECT_EQ(k.launch->block, (std::array<std::optional<uint64_t>, 3>{8, 8, 1}));
  EXPECT_EQ(k.launch->grid, (std::array<std::optional<uint64_t>, 3>{std::nullopt, 1, 1}));
  // field reads keep the shape; a field assigned after the launch is unknown there too
  const model::Kernel &rows = kernel(tu, "scale_rows");
  ASSERT_TRUE(rows.launch.has_value());
  EXPECT_EQ(rows.launch->grid, (std::array<std::optional<uint64_t>, 3>{std::nullopt, 1, 1}));
  EXPECT_EQ(rows.launch->block, (std::array<std::optional<uint64_t>, 3>{std::nullopt, std::nullopt, 1}));
  // fields assigned constants in straight-line code have them (blocks.x = 2); one assigned
  // a parameter, or under an if, is unknown
  const model::Kernel &per_row = kernel(tu, "per_row");
  ASSERT_TRUE(per_row.launch.has_value());
  EXPECT_EQ(per_row.launch->block, (std::array<std::optional<uint64_t>, 3>{std::nullopt, 1, 1}));
  EXPECT_EQ(per_row.launch->grid, (std::array<std::optional<uint64_t>, 3>{2, 1, std::nullopt}));
}

// Errors with no kernel: a file nothing in which says __global__, whose missing headers
// are a library's (<...>), has no kernel to hide (host_only_errors.cu, whose missing
// header is the project's, might: a kernel macro defined there).
TEST(Frontend, HostOnlyFileWithLibraryErrorsHasNoKernels) {
  auto host_only = parse("frontend/host_only_library_errors.cu");
  EXPECT_TRUE(host_only.parsed);
  EXPECT_TRUE(host_only.kernels.empty());
}

TEST(Frontend, LaunchWithSpacedChevrons) {
  auto tu = parse("frontend/launch_spaced_chevrons.cu");
  ASSERT_TRUE(tu.parsed);
  const model::Kernel &k = kernel(tu, "halve");
  ASSERT_TRUE(k.launch.has_value());
  EXPECT_EQ(k.launch->block, (std::array<std::optional<uint64_t>, 3>{128, 1, 1}));
}

TEST(Frontend, JoinLaunchChevronsKeepsColumnsAndLeavesCppAlone) {
  EXPECT_EQ(frontend::joinLaunchChevrons("k << < g, b >> > (x);"), "k <<<  g, b >>>  (x);");
  EXPECT_EQ(frontend::joinLaunchChevrons("k<<<g, n >> 1>>>(x);"), std::nullopt);
  EXPECT_EQ(frontend::joinLaunchChevrons("k<< <g, n >> 1>> >(x);"), "k<<< g, n >> 1>>> (x);");
  EXPECT_EQ(frontend::joinLaunchChevrons("return operator<< <int>(s, b);"), std::nullopt);
  EXPECT_EQ(frontend::joinLaunchChevrons("Pair<Box<Box<int>> > p; // << <"), std::nullopt);
  EXPECT_EQ(frontend::joinLaunchChevrons("puts(\"<< <\"); int m = 1'000 << 2;"), std::nullopt);
}

// A kernel whose address is passed to cudaLaunchKernel may run in any shape: it is also
// modelled with no launch. Inspecting it (cudaFuncSetAttribute) launches nothing.
TEST(Frontend, KernelAddressTakenIsALaunchOfUnknownShape) {
  auto tu = parse("frontend/launch_and_address_taken.cu");
  ASSERT_TRUE(tu.parsed);
  ASSERT_EQ(tu.kernels.size(), 2u);
  const model::Kernel &launched = kernel(tu, "fill (launch at launch_and_address_taken.cu:9:5)");
  ASSERT_TRUE(launched.launch.has_value());
  EXPECT_EQ(launched.launch->grid, (std::array<std::optional<uint64_t>, 3>{8, 1, 1}));
  EXPECT_FALSE(kernel(tu, "fill (used at launch_and_address_taken.cu:10:36)").launch.has_value());
}

// The grid computed from a kernel argument and the block size is stated over what the
// kernel sees: (n + 255) / 256 blocks of 256 threads, n passed as the kernel's n.
TEST(Frontend, HostLaunchGridFromAKernelArgumentIsAFact) {
  auto tu = parse("frontend/missing_header_host_errors.cu");
  const model::Kernel &scale = kernel(tu, "scale");
  ASSERT_TRUE(scale.launch.has_value());
  EXPECT_EQ(scale.launch->block, (std::array<std::optional<uint64_t>, 3>{256, 1, 1}));
  EXPECT_FALSE(scale.launch->grid[0].has_value());
  ASSERT_EQ(scale.launch->grid_facts.size(), 1u);
  EXPECT_EQ(scale.launch->grid_facts[0],
            "(0L + 256) * (0L + gridDim.x) <= (0L + (n + 255)) && (0L + (n + 255)) < "
            "(0L + 256) * ((0L + gridDim.x) + 1)");
}

// A cast that keeps every value is seen through; a narrowing one is not (no fact).
TEST(Frontend, HostLaunchGridThroughAValuePreservingCast) {
  auto tu = parse("frontend/launch_grid_cast.cu");
  ASSERT_TRUE(tu.parsed);
  ASSERT_EQ(tu.kernels.size(), 2u);
  const model::Kernel &cast = tu.kernels[0];
  ASSERT_TRUE(cast.launch.has_value());
  ASSERT_EQ(cast.launch->grid_facts.size(), 1u);
  EXPECT_NE(cast.launch->grid_facts[0].find("(blockDim.x * 8)"), std::string::npos)
      << cast.launch->grid_facts[0];
  ASSERT_TRUE(tu.kernels[1].launch.has_value());
  EXPECT_TRUE(tu.kernels[1].launch->grid_facts.empty());
}

// A .cu file the main file #includes is part of the unit: its kernel is modelled, with the
// launch its own launcher makes, though the main file never names the kernel.
TEST(Frontend, KernelsOfAnIncludedCuFileAreTheUnits) {
  auto tu = parse("frontend/fragment/main.cu");
  ASSERT_TRUE(tu.parsed);
  const model::Kernel &k = kernel(tu, "smooth");
  ASSERT_TRUE(k.launch.has_value());
  EXPECT_EQ(k.launch->block, (std::array<std::optional<uint64_t>, 3>{128, 1, 1}));
}

TEST(Frontend, HostLaunchDim3GridGivesAFactPerComponent) {
  auto tu = parse("frontend/dim3_grid_facts.cu");
  ASSERT_TRUE(tu.parsed);
  const model::Kernel &k = kernel(tu, "stencil");
  ASSERT_TRUE(k.launch.has_value());
  ASSERT_EQ(k.launch->grid_facts.size(), 2u);
  EXPECT_NE(k.launch->grid_facts[0].find("(0L + gridDim.x) <= (0L + nx)"), std::string::npos)
      << k.launch->grid_facts[0];
  EXPECT_NE(k.launch->grid_facts[1].find("(0L + gridDim.y) <= (0L + ny)"), std::string::npos)
      << k.launch->grid_facts[1];
  // nx written after the dim3 was made: no fact on x; ny still gives one on y
  const model::Kernel &changed = kernel(tu, "stencil_after_change");
  ASSERT_TRUE(changed.launch.has_value());
  ASSERT_EQ(changed.launch->grid_facts.size(), 1u);
  EXPECT_NE(changed.launch->grid_facts[0].find("gridDim.y"), std::string::npos);
}

TEST(Frontend, IncludeGuardAfterASkippedHeaderIsNoUnknownCondition) {
  auto tu = parse("frontend/missing_header_include_guard.cu");
  ASSERT_TRUE(tu.parsed);
  EXPECT_TRUE(kernel(tu, "count").unsupported.empty());
  EXPECT_FALSE(kernel(tu, "maybe_wide").unsupported.empty());
}

TEST(FrontendBadInput, BinaryGarbageDoesNotParse) {
  std::string path = testing::TempDir() + "kverify_garbage.cu";
  {
    std::ofstream out(path, std::ios::binary);
    std::mt19937 rng(42);
    for (int i = 0; i < 4096; ++i) out.put(static_cast<char>(rng() & 0xff));
  }
  frontend::Options options;
  options.print_diagnostics = false;
  auto tu = frontend::parseFile(path, options);
  EXPECT_FALSE(tu.parsed);
  EXPECT_FALSE(tu.diagnostics.empty());
  std::remove(path.c_str());
}

TEST(FrontendBadInput, MissingFileDoesNotParse) {
  auto tu = parse("frontend/does_not_exist.cu");
  EXPECT_FALSE(tu.parsed);
  EXPECT_FALSE(tu.diagnostics.empty());
}

TEST(FrontendSources, DirectoriesExpandToSortedCudaSources) {
  std::vector<std::string> errors;
  std::vector<std::string> files =
      frontend::collectSources({std::string(KVERIFY_FIXTURES) + "/seed003", "no/such/dir"}, errors);
  EXPECT_EQ(files.size(), 11u);
  EXPECT_TRUE(std::is_sorted(files.begin(), files.end()));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_HAS(errors[0], "no/such/dir");
}

// --- the sample kernels of a PyCUDA guide -----------------------------------------------------

class Seed003 : public testing::TestWithParam<const char *> {};

TEST_P(Seed003, ProducesAModel) {
  auto tu = parse(std::string("seed003/") + GetParam());
  ASSERT_TRUE(tu.parsed);
  ASSERT_EQ(tu.kernels.size(), 1u);
  EXPECT_TRUE(tu.kernels[0].unsupported.empty()) << model::toText(tu);
  EXPECT_FALSE(all<st::Access>(tu.kernels[0]).empty());
}

INSTANTIATE_TEST_SUITE_P(Frontend, Seed003,
                         testing::Values("map.cu", "reduce.cu", "scan.cu", "vector_add.cu", "grayscale.cu",
                                         "blur.cu", "matmul_naive.cu", "matmul_shared.cu",
                                         "transpose_naive.cu", "transpose_padded.cu", "histogram_atomic.cu"),
                         [](const testing::TestParamInfo<const char *> &info) {
                           std::string n = info.param;
                           return n.substr(0, n.size() - 3);
                         });

TEST(Seed003Models, ReduceHasTheTreeLoopWithItsBarrier) {
  auto tu = parse("seed003/reduce.cu");
  ASSERT_EQ(tu.kernels.size(), 1u);
  const model::Kernel &k = tu.kernels[0];
  std::string t = model::toText(k);
  EXPECT_HAS(t, "s = blockDim.x / 2\n  for (s > 0) {\n    if (tid < s) {\n      read sdata[(i64)(tid + s)]");
  EXPECT_HAS(t, "    barrier block __syncthreads\n  } step {\n    s = s >> (u32)1");
}

TEST(Seed003Models, TransposePaddedUsesThePaddedPitch) {
  auto tu = parse("seed003/transpose_padded.cu");
  ASSERT_EQ(tu.kernels.size(), 1u);
  const model::Kernel &k = tu.kernels[0];
  EXPECT_EQ(array(k, "tile")->dims, (std::vector<uint64_t>{16, 17}));
  EXPECT_HAS(model::toText(k), "read tile[(i64)threadIdx.x * 17 + (i64)threadIdx.y]");
}

TEST(Seed003Models, HistogramIsAnAtomicAtALoadedIndex) {
  auto tu = parse("seed003/histogram_atomic.cu");
  ASSERT_EQ(tu.kernels.size(), 1u);
  const model::Kernel &k = tu.kernels[0];
  EXPECT_EQ(accesses(k)[1].substr(0, 20), "atomic hist[(i64)opa");
}

TEST(Seed003Models, SharedMatmulHasTwoBarriersInTheTileLoop) {
  auto tu = parse("seed003/matmul_shared.cu");
  ASSERT_EQ(tu.kernels.size(), 1u);
  const model::Kernel &k = tu.kernels[0];
  std::vector<const st::Loop *> loops = all<st::Loop>(k);
  ASSERT_FALSE(loops.empty());
  EXPECT_EQ(stmtsOf<st::Barrier>(loops[0]->body).size(), 2u);
}

TEST(Frontend, HostRuntimeApiStubsTypeCheck) {
  auto tu = parse("frontend/host_runtime_api.cu");
  ASSERT_TRUE(tu.parsed) << (tu.diagnostics.empty() ? "" : tu.diagnostics[0].message);
  EXPECT_EQ(accesses(kernel(tu, "scale")), (std::vector<std::string>{"read v[(i64)i]", "write v[(i64)i]"}));
}

// <cuda/atomic>: every cuda::atomic_ref operation is an `atomic` access of the referenced
// element (never a plain read/write, never dropped), reported at the user's call.
TEST(Frontend, LibcudacxxAtomicRefOperationsAreAtomicAccesses) {
  auto tu = parse("frontend/libcudacxx_atomics.cu");
  ASSERT_TRUE(tu.parsed) << (tu.diagnostics.empty() ? "" : tu.diagnostics[0].message);
  const model::Kernel &k = kernel(tu, "libcudacxx_atomics");
  EXPECT_TRUE(k.unsupported.empty()) << model::toText(k);
  std::vector<std::string> atomics;
  for (const Stmt *s : stmtsOf<st::Access>(k.body)) {
    const st::Access &a = *s->as<st::Access>();
    if (a.kind == model::AccessKind::Atomic) {
      atomics.push_back(k.arrays[a.array].name + " " + model::atomicOpName(a.atomic));
      EXPECT_EQ(s->range.file.find("prelude"), std::string::npos) << s->range.file;
    }
  }
  EXPECT_EQ(atomics, (std::vector<std::string>{"counter add", "words store", "words load", "flags cas",
                                               "sums add", "bins exch", "bins add"}));
  std::string t = model::toText(k);
  EXPECT_HAS(t, "atomic counter[0] add");
  EXPECT_HAS(t, "store.p.offset = (i64)t");  // the element the temporary refers to
  EXPECT_HAS(t, "load.p.offset = (i64)(t + 1)");
  EXPECT_HAS(t, "expected = cas.old");  // compare_exchange updates `expected`
  EXPECT_HAS(t, "fence device");        // atomic_thread_fence(..., device)
  EXPECT_EQ(accesses(k).back(), "write out[(i64)t]");
}

// A spin-wait on an atomic load: a loop whose exit depends on the (opaque) atomic result,
// the load an atomic access in every iteration.
TEST(Frontend, LibcudacxxSpinWaitIsALoopOverAnAtomicLoad) {
  auto tu = parse("frontend/libcudacxx_atomics.cu");
  ASSERT_TRUE(tu.parsed);
  const model::Kernel &k = kernel(tu, "libcudacxx_spin_wait");
  EXPECT_TRUE(k.unsupported.empty()) << model::toText(k);
  std::string t = model::toText(k);
  EXPECT_HAS(t, "while (true) {");
  EXPECT_HAS(t, "atomic flag[load.p.offset] load");
  EXPECT_HAS(t, "if (!(load.result == 0)) {\n          break");
  EXPECT_HAS(t, "atomic flag[store.p.offset] store");
}

// A member call through a pointer runs on the object in memory: c->fetch_add(1) on a
// cuda::atomic in global memory is an atomic add on the object's bytes.
TEST(Frontend, MemberCallThroughAPointerUsesTheObjectInMemory) {
  auto tu = parse("frontend/libcudacxx_atomic_through_pointer.cu");
  ASSERT_TRUE(tu.parsed) << (tu.diagnostics.empty() ? "" : tu.diagnostics[0].message);
  const model::Kernel &k = kernel(tu, "atomic_through_pointer");
  EXPECT_TRUE(k.unsupported.empty()) << model::toText(k);
  EXPECT_NE(model::toText(k).find("atomic c[0] x4 add"), std::string::npos) << model::toText(k);
}

TEST(Frontend, NullChecksOfParametersAreUniformValues) {
  auto tu = parse("frontend/null_checks.cu");
  ASSERT_TRUE(tu.parsed);
  const model::Kernel &k = kernel(tu, "maybe_totals");
  EXPECT_TRUE(k.unsupported.empty());
  const std::string text = model::toText(k);
  EXPECT_NE(text.find("if ((totals != nullptr) && threadIdx.x == 0)"), std::string::npos) << text;
  EXPECT_NE(text.find("if (!(totals != nullptr))"), std::string::npos) << text;
  EXPECT_NE(text.find("if (true)"), std::string::npos) << "shared memory is never null\n" << text;
  EXPECT_NE(text.find("if (!(in != nullptr))"), std::string::npos) << text;
  EXPECT_EQ(text.find("if (opaque"), std::string::npos) << "no per-thread values\n" << text;
  EXPECT_EQ(text.find("nullptr) && opaque"), std::string::npos) << "no per-thread values\n" << text;
}

// --- function pointers: integer tags, calls as a dispatch over the candidates ---------

TEST(Frontend, FunctionPointerParameterIsATagAndItsCallADispatch) {
  auto tu = parse("frontend/function_pointers.cu");
  ASSERT_TRUE(tu.parsed);
  const model::Kernel &k = kernel(tu, "param_dispatch");
  EXPECT_TRUE(k.unsupported.empty()) << model::toText(k);
  ASSERT_EQ(k.params.size(), 2u);
  EXPECT_EQ(k.params[1].name, "f");
  EXPECT_EQ(k.params[1].type, model::Type::integer(64, false));
  EXPECT_FALSE(k.params[1].array.has_value()) << "a tag, not a pointer into memory";
  const model::Array *none = array(k, "f.null_or_unknown_function");
  ASSERT_TRUE(none);
  EXPECT_EQ(none->space, model::AddressSpace::Shared);
  EXPECT_EQ(none->origin, model::ArrayOrigin::FunctionPointer);
  EXPECT_EQ(none->size, 0u) << "reading it is out of bounds";
  // if (f == 1) twice else if (f == 2) negate else <read of the empty array>
  ASSERT_EQ(k.body.size(), 2u) << model::toText(k);
  const st::If *first = k.body[0].as<st::If>();
  ASSERT_TRUE(first);
  EXPECT_EQ(model::toString(first->cond), "f == 1");
  ASSERT_EQ(first->then_body.size(), 2u);
  EXPECT_EQ(first->then_body[0].as<st::Inlined>()->function, "twice");
  EXPECT_EQ(model::toString(first->then_body[1].as<st::Assign>()->value), "twice.result");
  ASSERT_EQ(first->else_body.size(), 1u);
  const st::If &second = *first->else_body[0].as<st::If>();
  EXPECT_EQ(model::toString(second.cond), "f == 2");
  EXPECT_EQ(second.then_body[0].as<st::Inlined>()->function, "negate");
  ASSERT_EQ(second.else_body.size(), 2u);
  const st::Access *no_function = second.else_body[0].as<st::Access>();
  ASSERT_TRUE(no_function);
  EXPECT_EQ(no_function->kind, model::AccessKind::Read);
  EXPECT_EQ(k.arrays[no_function->array].name, "f.null_or_unknown_function");
  EXPECT_EQ(model::toString(no_function->index), "0");
  EXPECT_EQ(second.else_body[0].range.line, 14u);
  const st::Assign *result = second.else_body[1].as<st::Assign>();
  ASSERT_TRUE(result);
  EXPECT_EQ(result->local.name, "f.call.result");
  EXPECT_EQ(model::toString(result->value).rfind("opaque#", 0), 0u);
  EXPECT_EQ(accesses(k).back(), "write out[(i64)threadIdx.x]");
  EXPECT_HAS(model::toText(k), "write out[(i64)threadIdx.x] f.call.result");
}

TEST(Frontend, FunctionPointerValuesMoveAndCompareAsTags) {
  auto tu = parse("frontend/function_pointers.cu");
  ASSERT_TRUE(tu.parsed);
  const model::Kernel &k = kernel(tu, "moves_and_compares");
  EXPECT_TRUE(k.unsupported.empty()) << model::toText(k);
  std::string t = model::toText(k);
  EXPECT_HAS(t, "h = 3");                                  // halve: the third address taken
  EXPECT_HAS(t, "sel = (bool)(threadIdx.x & 1) ? 1 : 2");  // ?: of functions
  EXPECT_HAS(t, "erased = f");                             // through void *
  EXPECT_HAS(t, "back = erased");                          // and back
  EXPECT_HAS(t, "none = 0");                               // null
  EXPECT_HAS(t, "pick.result = pick.up ? 1 : 2");          // returned from an inlined call
  EXPECT_HAS(t, "box.op = pick.result");                   // a struct field
  EXPECT_HAS(t, "write out[(i64)0] (i32)(f == g)");        // == exact
  EXPECT_HAS(t, "write out[(i64)1] (i32)(f != 1)");
  EXPECT_HAS(t, "write out[(i64)2] (i32)opaque#");       // < unknown
  EXPECT_HAS(t, "write out[(i64)3] back != 0 ? 1 : 0");  // as a bool
  EXPECT_HAS(t, "apply.g = sel");                        // a parameter of an inlined call
  EXPECT_HAS(t, "if (apply.g == 1) {");
  EXPECT_HAS(t, "if (box.op == 1) {");
  EXPECT_HAS(t, "if (h == 3) {");
  // halve has another type: it is never a candidate of an int (*)(int)
  std::vector<const st::Inlined *> inlined = all<st::Inlined>(k);
  EXPECT_EQ(std::count_if(inlined.begin(), inlined.end(),
                          [](const st::Inlined *s) { return s->function == "halve"; }),
            1);
}

TEST(Frontend, ArithmeticOnAFunctionPointerIsUnsupported) {
  auto tu = parse("frontend/function_pointers.cu");
  ASSERT_TRUE(tu.parsed);
  const model::Kernel &k = kernel(tu, "arithmetic");
  ASSERT_EQ(k.unsupported.size(), 1u) << model::toText(k);
  EXPECT_EQ(k.unsupported[0].construct, "arithmetic on a function pointer");
  EXPECT_EQ(k.unsupported[0].range.line, 33u);
}

// The precompiled prelude (frontend/prelude_pch.cpp) is the prelude: every front-end
// fixture's model is the same parsed with it as with the prelude's text.
TEST(Frontend, ThePrecompiledPreludeGivesTheSameModels) {
  std::string pch_dir = testing::TempDir() + "/kverify_pch_" + std::to_string(::getpid());
  std::filesystem::remove_all(pch_dir);
  frontend::Options text, pch;
  text.print_diagnostics = pch.print_diagnostics = false;
  pch.pch_dir = pch_dir;
  size_t files = 0;
  for (const auto &e : std::filesystem::directory_iterator(std::string(KVERIFY_FIXTURES) + "/frontend")) {
    if (e.path().extension() != ".cu") continue;
    ++files;
    model::TranslationUnitModel a = frontend::parseFile(e.path().string(), text);
    model::TranslationUnitModel b = frontend::parseFile(e.path().string(), pch);
    EXPECT_EQ(a.parsed, b.parsed) << e.path();
    EXPECT_EQ(model::toText(a), model::toText(b)) << e.path();
    ASSERT_EQ(a.diagnostics.size(), b.diagnostics.size()) << e.path();
    for (size_t i = 0; i < a.diagnostics.size(); ++i)
      EXPECT_EQ(a.diagnostics[i].message, b.diagnostics[i].message);
  }
  EXPECT_GT(files, 20u);
  size_t pchs = 0;
  for (const auto &e : std::filesystem::directory_iterator(pch_dir)) pchs += e.path().extension() == ".pch";
  EXPECT_EQ(pchs, 1u);  // built once, read by every later parse
  std::filesystem::remove_all(pch_dir);
}
