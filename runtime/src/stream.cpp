#include "kverify/runtime/stream.hpp"

#include <algorithm>
#include <utility>

#include "kverify/runtime/error.hpp"

namespace kverify::rt {

Stream::Stream() { KV_CUDA_CHECK(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking)); }
Stream::~Stream() {
  if (s_) cudaStreamDestroy(s_);
}
Stream::Stream(Stream &&o) noexcept : s_(std::exchange(o.s_, nullptr)) {}
Stream &Stream::operator=(Stream &&o) noexcept {
  if (this != &o) {
    if (s_) cudaStreamDestroy(s_);
    s_ = std::exchange(o.s_, nullptr);
  }
  return *this;
}
void Stream::synchronize() const { KV_CUDA_CHECK(cudaStreamSynchronize(s_)); }

Event::Event() { KV_CUDA_CHECK(cudaEventCreate(&e_)); }
Event::~Event() {
  if (e_) cudaEventDestroy(e_);
}
void Event::record(cudaStream_t stream) { KV_CUDA_CHECK(cudaEventRecord(e_, stream)); }
void Event::synchronize() const { KV_CUDA_CHECK(cudaEventSynchronize(e_)); }

float elapsed_ms(const Event &start, const Event &stop) {
  stop.synchronize();
  float ms = 0;
  KV_CUDA_CHECK(cudaEventElapsedTime(&ms, start.get(), stop.get()));
  return ms;
}

TimingStats summarize(std::vector<float> samples_ms) {
  TimingStats t;
  t.samples_ms = samples_ms;
  if (samples_ms.empty()) return t;
  std::sort(samples_ms.begin(), samples_ms.end());
  const std::size_t n = samples_ms.size();
  t.min_ms = samples_ms.front();
  t.max_ms = samples_ms.back();
  t.median_ms = n % 2 ? samples_ms[n / 2] : (samples_ms[n / 2 - 1] + samples_ms[n / 2]) / 2;
  return t;
}

TimingStats time_on_stream(const std::function<void(cudaStream_t)> &work, cudaStream_t stream, int warmup,
                           int repetitions) {
  for (int i = 0; i < warmup; ++i) work(stream);
  Event start, stop;
  std::vector<float> samples;
  samples.reserve(repetitions > 0 ? repetitions : 0);
  for (int i = 0; i < repetitions; ++i) {
    start.record(stream);
    work(stream);
    stop.record(stream);
    samples.push_back(elapsed_ms(start, stop));
  }
  return summarize(std::move(samples));
}

}  // namespace kverify::rt
