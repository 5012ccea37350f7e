#pragma once
// RAII, move-only owners of CUDA objects: a typed device buffer, an event and page-locked host
// memory. An empty object
// needs no device; destructors only log errors.

#include <cuda_runtime.h>

#include <cstddef>
#include <memory>
#include <utility>

#include "sim/cuda/cuda_check.cuh"

namespace nbody::cuda {

/// `count` elements of T in device memory (cudaMalloc). Copies are explicit (upload/download).
template <typename T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t count) { resize(count); }
  ~DeviceBuffer() { release(); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& o) noexcept
      : ptr_(std::exchange(o.ptr_, nullptr)), count_(std::exchange(o.count_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
      release();
      ptr_ = std::exchange(o.ptr_, nullptr);
      count_ = std::exchange(o.count_, 0);
    }
    return *this;
  }

  /// Reallocates when the count changes (contents are not kept).
  void resize(std::size_t count) {
    if (count == count_) return;
    release();
    if (count > 0) NBODY_CUDA_CHECK(cudaMalloc(&ptr_, count * sizeof(T)));
    count_ = count;
  }
  /// Frees the memory; the buffer is empty afterwards.
  void release() noexcept {
    if (ptr_) NBODY_CUDA_LOG(cudaFree(ptr_));
    ptr_ = nullptr;
    count_ = 0;
  }
  /// Grows to at least `count` elements (contents are not kept); never shrinks.
  void reserve(std::size_t count) {
    if (count > count_) resize(count);
  }
  /// Copies `count` elements from host memory (count <= size()); waits for the copy.
  void upload(const T* src, std::size_t count, cudaStream_t stream = nullptr) {
    if (!count) return;
    NBODY_CUDA_CHECK(cudaMemcpyAsync(ptr_, src, count * sizeof(T), cudaMemcpyHostToDevice, stream));
    NBODY_CUDA_CHECK(cudaStreamSynchronize(stream));
  }
  /// Copies `count` elements to host memory (count <= size()) after the work queued on `stream`.
  void download(T* dst, std::size_t count, cudaStream_t stream = nullptr) const {
    download_from(dst, 0, count, stream);
  }
  /// The same from element `first` on (first + count <= size()).
  void download_from(T* dst, std::size_t first, std::size_t count,
                     cudaStream_t stream = nullptr) const {
    if (!count) return;
    // the work before it first, then the copy: a copy into pageable memory would wait for the
    // stream inside the driver, where another GPU's thread of the process may need to go on
    // (several GPUs: the stream may wait in a collective for that thread)
    NBODY_CUDA_CHECK(cudaStreamSynchronize(stream));
    NBODY_CUDA_CHECK(
        cudaMemcpyAsync(dst, ptr_ + first, count * sizeof(T), cudaMemcpyDeviceToHost, stream));
    NBODY_CUDA_CHECK(cudaStreamSynchronize(stream));
  }

  T* get() const { return ptr_; }
  std::size_t size() const { return count_; }

 private:
  T* ptr_ = nullptr;
  std::size_t count_ = 0;
};

/// A CUDA stream of its own (synchronising with the legacy default stream, so that plain
/// cudaMemcpy and the CUDA-GL interop calls stay ordered with it). Empty: the default stream.
class Stream {
 public:
  Stream() = default;
  /// Creates a stream on the current device.
  static Stream create() {
    Stream s;
    NBODY_CUDA_CHECK(cudaStreamCreate(&s.s_));
    return s;
  }
  ~Stream() {
    if (s_) NBODY_CUDA_LOG(cudaStreamDestroy(s_));
  }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  Stream(Stream&& o) noexcept : s_(std::exchange(o.s_, nullptr)) {}
  Stream& operator=(Stream&& o) noexcept {
    if (this != &o) {
      if (s_) NBODY_CUDA_LOG(cudaStreamDestroy(s_));
      s_ = std::exchange(o.s_, nullptr);
    }
    return *this;
  }
  cudaStream_t get() const { return s_; }

 private:
  cudaStream_t s_ = nullptr;
};

/// A CUDA event for timing.
class Event {
 public:
  Event() = default;
  ~Event() {
    if (ev_) NBODY_CUDA_LOG(cudaEventDestroy(ev_));
  }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  Event(Event&& o) noexcept : ev_(std::exchange(o.ev_, nullptr)) {}
  Event& operator=(Event&& o) noexcept {
    if (this != &o) {
      if (ev_) NBODY_CUDA_LOG(cudaEventDestroy(ev_));
      ev_ = std::exchange(o.ev_, nullptr);
    }
    return *this;
  }

  /// Records on `stream`, creating the event on first use.
  void record(cudaStream_t stream = nullptr) {
    if (!ev_) NBODY_CUDA_CHECK(cudaEventCreate(&ev_));
    NBODY_CUDA_CHECK(cudaEventRecord(ev_, stream));
  }
  /// Milliseconds from `start` to this event (waits for this event).
  float elapsed_since(const Event& start) const {
    NBODY_CUDA_CHECK(cudaEventSynchronize(ev_));
    float ms = 0;
    NBODY_CUDA_CHECK(cudaEventElapsedTime(&ms, start.ev_, ev_));
    return ms;
  }
  /// Waits until the work recorded before this event has completed (nothing recorded: returns).
  void wait() const {
    if (ev_) NBODY_CUDA_CHECK(cudaEventSynchronize(ev_));
  }
  /// Makes the work queued on `stream` from now on wait for the work recorded before this event
  /// (on the device; nothing recorded: no wait).
  void enqueue_wait(cudaStream_t stream) const {
    if (ev_) NBODY_CUDA_CHECK(cudaStreamWaitEvent(stream, ev_, 0));
  }

 private:
  cudaEvent_t ev_ = nullptr;
};

/// `count` elements of T in page-locked host memory (cudaMallocHost): the target of a copy from
/// the device that the host reads later, without waiting for the rest of the stream.
template <typename T>
class PinnedBuffer {
 public:
  /// Reallocates when the count changes (contents are not kept).
  void resize(std::size_t count) {
    if (count == count_) return;
    ptr_.reset();
    count_ = 0;
    if (count == 0) return;
    void* p = nullptr;
    NBODY_CUDA_CHECK(cudaMallocHost(&p, count * sizeof(T)));
    ptr_.reset(static_cast<T*>(p));
    count_ = count;
  }
  T* get() const { return ptr_.get(); }
  std::size_t size() const { return count_; }

 private:
  struct Free {
    void operator()(T* p) const noexcept { NBODY_CUDA_LOG(cudaFreeHost(p)); }
  };
  std::unique_ptr<T[], Free> ptr_;
  std::size_t count_ = 0;
};

}  // namespace nbody::cuda
