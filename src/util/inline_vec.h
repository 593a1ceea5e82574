// A vector that keeps its first N elements inside itself and moves to the heap past them. Where
// a container is nearly always small and is read on a hot path (a NIC's rotation of queue
// pairs, with one or two active), its elements then share the owner's cache lines instead of
// costing a line of the heap each. For trivially copyable elements only: they move by memcpy.
#ifndef ROCELAB_UTIL_INLINE_VEC_H_
#define ROCELAB_UTIL_INLINE_VEC_H_

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace rocelab {

template <typename T, uint32_t N>
class InlineVec {
  static_assert(std::is_trivially_copyable_v<T>, "elements move by memcpy");
  static_assert(N > 0, "at least one element inline");

 public:
  InlineVec() = default;
  InlineVec(const InlineVec& o) { CopyFrom(o); }
  InlineVec(InlineVec&& o) noexcept { TakeFrom(o); }
  InlineVec& operator=(const InlineVec& o) {
    if (this != &o) {
      size_ = 0;
      CopyFrom(o);
    }
    return *this;
  }
  InlineVec& operator=(InlineVec&& o) noexcept {
    if (this != &o) {
      Free();
      TakeFrom(o);
    }
    return *this;
  }
  ~InlineVec() { Free(); }

  uint32_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // Bytes held on the heap (0 while the elements fit inside).
  size_t HeapBytes() const { return OnHeap() ? cap_ * sizeof(T) : 0; }

  T* data() { return OnHeap() ? heap_ : inline_; }
  const T* data() const { return OnHeap() ? heap_ : inline_; }
  T* begin() { return data(); }
  T* end() { return data() + size_; }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size_; }
  T& operator[](size_t i) { return data()[i]; }
  const T& operator[](size_t i) const { return data()[i]; }
  T& front() { return data()[0]; }
  const T& front() const { return data()[0]; }
  T& back() { return data()[size_ - 1]; }
  const T& back() const { return data()[size_ - 1]; }

  void push_back(const T& v) {
    if (size_ == cap_) Reserve(cap_ * 2);
    data()[size_++] = v;
  }
  void pop_back() { --size_; }
  // Grows with copies of `v`, or drops the elements past `n`.
  void resize(uint32_t n, const T& v = T{}) {
    if (n > cap_) Reserve(n > cap_ * 2 ? n : cap_ * 2);
    for (T* p = data() + size_; p < data() + n; ++p) *p = v;
    size_ = n;
  }

 private:
  bool OnHeap() const { return cap_ > N; }
  void Reserve(uint32_t cap) {
    T* grown = new T[cap];
    std::memcpy(grown, data(), size_ * sizeof(T));
    Free();
    heap_ = grown;
    cap_ = cap;
  }
  void Free() {
    if (OnHeap()) delete[] heap_;
    cap_ = N;
  }
  void CopyFrom(const InlineVec& o) {
    if (o.size_ > cap_) Reserve(o.size_);
    std::memcpy(data(), o.data(), o.size_ * sizeof(T));
    size_ = o.size_;
  }
  void TakeFrom(InlineVec& o) {
    size_ = o.size_;
    cap_ = o.cap_;
    if (o.OnHeap()) heap_ = o.heap_;
    else std::memcpy(inline_, o.inline_, o.size_ * sizeof(T));
    o.size_ = 0;
    o.cap_ = N;
  }

  uint32_t size_ = 0;
  uint32_t cap_ = N;  // N: the elements are inline
  union {
    T inline_[N];
    T* heap_;
  };
};

}  // namespace rocelab

#endif  // ROCELAB_UTIL_INLINE_VEC_H_
