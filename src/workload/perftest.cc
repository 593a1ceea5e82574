#include "workload/perftest.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "net/fabric.h"
#include "util/config_error.h"
#include "util/units.h"

namespace rocelab {

std::vector<uint64_t> PerftestAllSizes() {
  std::vector<uint64_t> v;
  for (uint64_t s = 2; s <= 8388608; s *= 2) v.push_back(s);
  return v;
}

namespace {

class Driver : public MessageListener {
 public:
  Driver(Fabric* f, const PerftestOptions& o, int src, int dst, uint8_t dscp) : f_(f), o_(o) {
    latency_ = o.test.size() > 4 && o.test.compare(o.test.size() - 4, 4, "_lat") == 0;
    read_ = o.test.rfind("read", 0) == 0;
    verb_ = read_ ? Verb::kRead : o.test.rfind("send", 0) == 0 ? Verb::kSend : Verb::kWrite;
    // READs: at most 16 outstanding per QP, as perftest's "Outstand reads" on mlx5.
    depth_ = read_ ? std::min(o.tx_depth, 16) : o.tx_depth;
    for (int q = 0; q < (latency_ ? 1 : o.qps); ++q) client_.push_back(f->OpenQueuePair(src, dst, dscp, this));
    if (latency_ && !read_) server_ = f->OpenQueuePair(dst, src, dscp, this);
  }

  void Start() {
    f_->AddWork();
    StartSize();
  }

  PerftestResult result;
  bool failed = false;  // a queue pair went to the error state

 private:
  void StartSize() {
    const uint64_t size = o_.sizes[size_index_];
    posted_ = completed_ = 0;
    tposted_.assign(static_cast<size_t>(o_.iters) * (latency_ ? 1 : client_.size()), 0);
    tcompleted_.assign(tposted_.size(), 0);
    if (latency_) {
      Post(client_[0], size);
    } else {
      for (uint32_t qp : client_)
        for (int d = 0; d < depth_ && posted_ < tposted_.size(); ++d) Post(qp, size);
    }
  }

  void Post(uint32_t qp, uint64_t size) {
    tposted_[posted_] = f_->now();
    f_->PostMessage(qp, verb_, size, posted_);
    ++posted_;
  }

  void OnSendComplete(uint32_t qp, const Message& m, Time now) override {
    if (latency_ && read_) {
      // read_lat: the READ's completion is the round trip; post the next one.
      if (posted_ < tposted_.size()) Post(qp, m.size);
      else {
        tcompleted_.back() = now;
        FinishSize();
      }
      return;
    }
    if (latency_ || qp == server_) return;
    tcompleted_[m.tag] = now;
    ++completed_;
    if (posted_ < tposted_.size()) Post(qp, m.size);
    if (completed_ == tposted_.size()) FinishSize();
  }

  // A failed QP: perftest exits with an error; here the test ends and says so.
  void OnSendError(uint32_t, const Message&, Error, Time) override {
    if (failed) return;
    failed = true;
    f_->WorkDone();
  }

  void OnReceiveComplete(uint32_t qp, uint8_t, Time now) override {
    if (!latency_) return;
    const uint64_t size = o_.sizes[size_index_];
    if (qp == client_[0]) {
      f_->PostMessage(server_, verb_, size, 0);  // the server answers the ping
      return;
    }
    if (posted_ < tposted_.size()) {
      Post(client_[0], size);
    } else {
      tcompleted_.back() = now;
      FinishSize();
    }
  }

  void FinishSize() {
    const uint64_t size = o_.sizes[size_index_];
    const size_t n = tposted_.size();
    if (latency_) {
      // perftest: samples are the gaps between posts, over the round trip factor 2.
      std::vector<double> d;
      // perftest's rtt_factor: a READ's completion is already the round trip; WRITE and SEND halve it.
      const double factor = read_ ? 1e6 : 2e6;
      for (size_t i = 0; i + 1 < n; ++i) d.push_back(static_cast<double>(tposted_[i + 1] - tposted_[i]) / factor);
      if (d.empty()) d.push_back(static_cast<double>(tcompleted_.back() - tposted_[0]) / factor);
      std::sort(d.begin(), d.end());
      const size_t cnt = d.size() > 2 ? d.size() - 2 : d.size();
      PerftestLatRow r;
      r.bytes = size;
      r.iters = static_cast<uint64_t>(o_.iters);
      r.t_min = d[0];
      r.t_max = d[std::min(cnt, d.size() - 1)];
      r.t_typical = ((cnt - 1) % 2) ? (d[cnt / 2] + d[cnt / 2 - 1]) / 2 : d[cnt / 2];
      double sum = 0, var = 0;
      for (size_t i = 0; i < cnt; ++i) sum += d[i];
      r.t_avg = sum / static_cast<double>(cnt);
      for (size_t i = 0; i < cnt; ++i) var += (r.t_avg - d[i]) * (r.t_avg - d[i]);
      r.t_stdev = std::sqrt(var / static_cast<double>(cnt));
      r.p99 = d[std::min(d.size() - 1, static_cast<size_t>(std::ceil(cnt * 0.99)))];
      r.p999 = d[std::min(d.size() - 1, static_cast<size_t>(std::ceil(cnt * 0.999)))];
      result.lat.push_back(r);
    } else {
      const double unit = o_.report_gbits ? 125000000.0 : 1048576.0;
      const double span_s = static_cast<double>(tcompleted_[n - 1] - tposted_[0]) / kSecond;
      PerftestBwRow r;
      r.bytes = size;
      r.iters = n;
      r.bw_average = static_cast<double>(size) * static_cast<double>(n) / span_s / unit;
      r.msg_rate_mpps = static_cast<double>(n) / span_s / 1e6;
      // Peak: the best average over any run of consecutive messages (perftest's opt_delta). A
      // run i..j lasts from the post of i until the last of them completes: with several QPs a
      // later post can complete before an earlier one, and timing the run by message j's
      // completion alone would credit it with bytes still on the wire (peaks above the link).
      Time best = tcompleted_[0] - tposted_[0];
      for (size_t i = 0; i < n; ++i) {
        Time end = 0;
        for (size_t j = i; j < n; ++j) {
          end = std::max(end, tcompleted_[j]);
          best = std::min<Time>(best, (end - tposted_[i]) / static_cast<Time>(j - i + 1));
        }
      }
      r.bw_peak = best > 0 ? static_cast<double>(size) / (static_cast<double>(best) / kSecond) / unit : 0;
      result.bw.push_back(r);
    }
    if (++size_index_ < o_.sizes.size()) StartSize();
    else if (!failed) f_->WorkDone();
  }

  Fabric* f_;
  PerftestOptions o_;
  bool latency_ = false;
  bool read_ = false;
  int depth_ = 128;
  Verb verb_ = Verb::kWrite;
  std::vector<uint32_t> client_;
  uint32_t server_ = UINT32_MAX;
  size_t size_index_ = 0, posted_ = 0, completed_ = 0;
  std::vector<Time> tposted_, tcompleted_;
};

const char* kLine = "---------------------------------------------------------------------------------------\n";

}  // namespace

PerftestResult RunPerftest(const Scenario& scenario, const PerftestOptions& options) {
  PerftestOptions o = options;
  static const char* kTests[] = {"write_bw", "send_bw", "read_bw", "write_lat", "send_lat", "read_lat"};
  if (std::find(std::begin(kTests), std::end(kTests), o.test) == std::end(kTests))
    throw ConfigError("perftest", 0, "test",
                      "'" + o.test + "' should be write_bw, send_bw, read_bw, write_lat, send_lat or read_lat");
  const bool latency = o.test.find("_lat") != std::string::npos;
  if (o.sizes.empty()) o.sizes = {latency ? 2ull : 65536ull};
  if (o.iters <= 0) o.iters = latency ? 1000 : 5000;
  // The test runs alone on the scenario's fabric: a bare Fabric carries none of its workload.
  Scenario sc = scenario;
  sc.duration = 3600 * kSecond;
  Fabric fabric(sc);
  const int src = fabric.HostIndex(o.src), dst = fabric.HostIndex(o.dst);
  if (src < 0) throw ConfigError("perftest", 0, "src", "no host named '" + o.src + "'");
  if (dst < 0 || dst == src) throw ConfigError("perftest", 0, "dst", "no other host named '" + o.dst + "'");
  const NicSpec& nic = NicSpecFor(sc, o.src);
  Driver driver(&fabric, o, src, dst, kRoceDscp);
  driver.Start();
  fabric.Run();
  PerftestResult r = driver.result;
  r.bandwidth = !latency;
  r.qp_error = driver.failed;

  const bool read = o.test.rfind("read", 0) == 0;
  const std::string verb = read ? "RDMA_Read" : o.test.rfind("send", 0) == 0 ? "Send" : "RDMA_Write";
  char buf[512];
  std::string& s = r.report;
  s += kLine;
  std::snprintf(buf, sizeof buf, "                    %s %s Test\n", verb.c_str(), latency ? "Latency" : "BW");
  s += buf;
  std::snprintf(buf, sizeof buf, " Dual-port       : OFF\t\tDevice         : mlx5_0\n Number of qps   : %d\t\tTransport type : IB\n"
                " Connection type : RC\t\tUsing SRQ      : OFF\n",
                latency ? 1 : o.qps);
  s += buf;
  if (!latency) {
    std::snprintf(buf, sizeof buf, " TX depth        : %d\n", o.tx_depth);
    s += buf;
  }
  std::snprintf(buf, sizeof buf, " Mtu             : %u[B]\n Link type       : Ethernet\n GID index       : 3\n%s"
                " rdma_cm QPs\t : OFF\n Data ex. method : Ethernet\n",
                nic.mtu, read ? " Outstand reads  : 16\n" : " Max inline data : 0[B]\n");
  s += buf;
  std::snprintf(buf, sizeof buf, " Simulated by    : rocelab, %s -> %s, %s link\n", o.src.c_str(), o.dst.c_str(),
                FormatRate(fabric.nic(o.src).port(0).rate_bps).c_str());
  s += buf;
  s += kLine;
  if (latency) {
    s += " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    t_stdev[usec]   99% "
         "percentile[usec]   99.9% percentile[usec] \n";
    for (const PerftestLatRow& l : r.lat) {
      std::snprintf(buf, sizeof buf,
                    " %-7lu %lu          %-7.2f        %-7.2f      %-7.2f  \t       %-7.2f     \t%-7.2f\t\t%-7.2f \t\t%-7.2f\n",
                    static_cast<unsigned long>(l.bytes), static_cast<unsigned long>(l.iters), l.t_min, l.t_max, l.t_typical,
                    l.t_avg, l.t_stdev, l.p99, l.p999);
      s += buf;
    }
  } else {
    s += o.report_gbits ? " #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]\n"
                        : " #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]\n";
    for (const PerftestBwRow& b : r.bw) {
      std::snprintf(buf, sizeof buf, " %-7lu    %-10lu       %-7.2lf            %-7.2lf\t\t   %-7.6lf\n",
                    static_cast<unsigned long>(b.bytes), static_cast<unsigned long>(b.iters), b.bw_peak, b.bw_average,
                    b.msg_rate_mpps);
      s += buf;
    }
  }
  s += kLine;
  // What perftest prints when a completion comes back in error (status 12: IBV_WC_RETRY_EXC_ERR).
  if (r.qp_error) s += " Completion with error at client\n Failed status 12: wr_id 0 syndrom 0x81\n";
  return r;
}

}  // namespace rocelab
