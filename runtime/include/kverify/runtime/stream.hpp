// RAII streams and events, and an event timer for benchmarks.
#pragma once

#include <cuda_runtime_api.h>

#include <functional>
#include <vector>

namespace kverify::rt {

class Stream {
public:
  Stream();  // non-blocking with respect to the legacy default stream
  ~Stream();
  Stream(const Stream &) = delete;
  Stream &operator=(const Stream &) = delete;
  Stream(Stream &&o) noexcept;
  Stream &operator=(Stream &&o) noexcept;

  cudaStream_t get() const noexcept { return s_; }
  void synchronize() const;

private:
  cudaStream_t s_ = nullptr;
};

class Event {
public:
  Event();
  ~Event();
  Event(const Event &) = delete;
  Event &operator=(const Event &) = delete;

  void record(cudaStream_t stream);
  void synchronize() const;
  cudaEvent_t get() const noexcept { return e_; }

private:
  cudaEvent_t e_ = nullptr;
};

// Milliseconds between two recorded events (waits for `stop`).
float elapsed_ms(const Event &start, const Event &stop);

struct TimingStats {
  std::vector<float> samples_ms;  // in run order
  float median_ms = 0;
  float min_ms = 0;
  float max_ms = 0;
};

// Order statistics of samples (host-only, no GPU needed). Empty input -> zeros.
TimingStats summarize(std::vector<float> samples_ms);

// Runs `work(stream)` `warmup` times untimed, then `repetitions` times, each
// bracketed by events on `stream`.
TimingStats time_on_stream(const std::function<void(cudaStream_t)> &work, cudaStream_t stream, int warmup = 3,
                           int repetitions = 20);

}  // namespace kverify::rt
