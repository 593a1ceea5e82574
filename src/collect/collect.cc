#include "collect/collect.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "telemetry/counter_names.h"
#include "util/json_writer.h"
#include "util/text_file.h"

namespace rocelab {

namespace {

std::vector<std::string> ListDir(const std::string& dir) {
  std::vector<std::string> names;
  DIR* d = ::opendir(dir.c_str());
  if (!d) return names;
  while (dirent* e = ::readdir(d)) {
    std::string n = e->d_name;
    if (n != "." && n != "..") names.push_back(n);
  }
  ::closedir(d);
  std::sort(names.begin(), names.end());
  return names;
}

bool IsDir(const std::string& p) {
  struct stat st;
  return ::stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool ReadSmall(const std::string& path, std::string* out) {
  std::string err;
  if (!ReadTextFile(path, out, &err, 1ull << 20)) return false;
  while (!out->empty() && (out->back() == '\n' || out->back() == ' ')) out->pop_back();
  return true;
}

// A sysfs name used in a file name: no path separators, no hidden names.
bool SafeName(const std::string& n) {
  if (n.empty() || n[0] == '.' || n.size() > 64) return false;
  for (char c : n)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' || c == ':' || c == '@')) return false;
  return true;
}

// Every regular file of `dir` holding one whole number, as "name: value" lines.
std::string CounterDir(const std::string& dir) {
  std::string out;
  for (const std::string& n : ListDir(dir)) {
    std::string v;
    if (IsDir(dir + "/" + n) || !ReadSmall(dir + "/" + n, &v)) continue;
    bool digits = !v.empty() && std::all_of(v.begin(), v.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
    if (digits) out += n + ": " + v + "\n";
  }
  return out;
}

void WriteText(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  if (!out) throw std::runtime_error("cannot write " + path);
  out << text;
}

// Runs argv[0] with the arguments as given (no shell). Returns "ran", "absent" or "failed (status N)".
std::string RunTool(const std::vector<std::string>& argv, const std::string& out_path) {
  int fd = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) throw std::runtime_error("cannot write " + out_path);
  pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fd);
    return "failed (fork)";
  }
  if (pid == 0) {
    ::dup2(fd, 1);
    int devnull = ::open("/dev/null", O_WRONLY);
    if (devnull >= 0) ::dup2(devnull, 2);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    ::execvp(args[0], args.data());
    ::_exit(errno == ENOENT ? 127 : 126);
  }
  ::close(fd);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return "ran";
  ::unlink(out_path.c_str());
  if (WIFEXITED(status) && WEXITSTATUS(status) == 127) return "absent";
  return "failed (status " + std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + ")";
}

struct Device {
  std::string rdma, port, netdev;
  std::vector<std::string> counter_files;
  std::map<std::string, std::string> cc_params;
  std::string mlnx_qos;
  long long mtu = 0, speed = 0;
  std::string operstate;  // /sys/class/net/<netdev>/operstate at the last sample ("up", "down", ...)
};

// Where a collection reads from and writes to, and how each tool fared.
struct Collection {
  std::string root;     // "" for the live host, else the captured tree
  std::string ib;       // its /sys/class/infiniband
  std::string tmp;      // the bundle being written
  std::string captured; // --root: captured command outputs live under captured/commands
  bool live = true;
  std::map<std::string, std::string> tools;
};

// Every port of every RDMA device, with its netdev.
std::vector<Device> FindDevices(const std::string& ib) {
  std::vector<Device> devices;
  for (const std::string& dev : ListDir(ib)) {
    if (!SafeName(dev)) continue;
    for (const std::string& port : ListDir(ib + "/" + dev + "/ports")) {
      if (!SafeName(port)) continue;
      Device d;
      d.rdma = dev;
      d.port = port;
      std::string nd;
      std::vector<std::string> nets = ListDir(ib + "/" + dev + "/device/net");
      if (!nets.empty()) nd = nets.front();
      else ReadSmall(ib + "/" + dev + "/ports/" + port + "/gid_attrs/ndevs/0", &nd);
      d.netdev = SafeName(nd) ? nd : "";
      devices.push_back(d);
    }
  }
  if (devices.empty()) throw std::runtime_error(ib + ": no RDMA device ports found");

  return devices;
}

// One sample of every device's counters into `sdir`; the first sample also names the files.
void CollectSample(Collection& c, std::vector<Device>& devices, const std::string& sdir, bool first) {
  const std::string& root = c.root;
  const bool live = c.live;
  const std::string& ib = c.ib;
  for (Device& d : devices) {
    const std::string base = ib + "/" + d.rdma + "/ports/" + d.port;
    const std::string stem = d.rdma + ".port" + d.port;
    for (const char* kind : {"counters", "hw_counters"}) {
      std::string text = CounterDir(base + "/" + kind);
      if (text.empty()) continue;
      const std::string name = stem + "." + kind + ".txt";
      WriteText(sdir + "/" + name, text);
      if (first) d.counter_files.push_back(name);
    }
    if (d.netdev.empty()) continue;
    const std::string net = root + "/sys/class/net/" + d.netdev;
    std::string link;
    std::string v;
    // Exported under its sysfs file name, as diagnose reads it.
    if (ReadSmall(net + "/" + kCarrierChanges.name, &v) && !v.empty() && std::isdigit(static_cast<unsigned char>(v[0])))
      link += std::string(kCarrierChanges.name) + ": " + v + "\n";
    // The link's state is a word, not a counter: the manifest keeps the last sample's.
    if (ReadSmall(net + "/operstate", &v) && !v.empty()) d.operstate = v;
    if (!link.empty()) {
      WriteText(sdir + "/" + d.netdev + ".link.txt", link);
      if (first) d.counter_files.push_back(d.netdev + ".link.txt");
    }
    const std::string ethtool_name = d.netdev + ".ethtool_S.txt";
    std::string status;
    if (live) {
      status = RunTool({"ethtool", "-S", d.netdev}, sdir + "/" + ethtool_name);
    } else {
      std::string captured;
      status = ReadSmall(c.captured + "/commands/ethtool_S." + d.netdev + ".txt", &captured) ? "captured" : "not in --root";
      if (status == "captured") WriteText(sdir + "/" + ethtool_name, captured + "\n");
    }
    c.tools["ethtool -S"] = status;
    if (first && (status == "ran" || status == "captured")) d.counter_files.push_back(ethtool_name);
  }
}

// Configuration, once: MTU, speed, DCQCN parameters, QoS.
void CollectConfiguration(Collection& c, std::vector<Device>& devices) {
  const std::string& root = c.root;
  const bool live = c.live;
  const std::string& tmp = c.tmp;
  ::mkdir((tmp + "/commands").c_str(), 0755);
  for (Device& d : devices) {
    if (d.netdev.empty()) continue;
    const std::string net = root + "/sys/class/net/" + d.netdev;
    std::string v;
    if (ReadSmall(net + "/mtu", &v)) d.mtu = std::atoll(v.c_str());
    if (ReadSmall(net + "/speed", &v)) d.speed = std::atoll(v.c_str());
    for (const char* side : {"roce_np", "roce_rp"}) {
      const std::string dir = net + "/ecn/" + side;
      for (const std::string& n : ListDir(dir)) {
        if (IsDir(dir + "/" + n)) {
          for (const std::string& m : ListDir(dir + "/" + n))
            if (ReadSmall(dir + "/" + n + "/" + m, &v)) d.cc_params[std::string(side) + "/" + n + "/" + m] = v;
        } else if (ReadSmall(dir + "/" + n, &v)) {
          d.cc_params[std::string(side) + "/" + n] = v;
        }
      }
    }
    const std::string qos = "commands/mlnx_qos." + d.netdev + ".txt";
    std::string status;
    if (live) {
      status = RunTool({"mlnx_qos", "-i", d.netdev}, tmp + "/" + qos);
      c.tools["dcb pfc show"] = RunTool({"dcb", "pfc", "show", "dev", d.netdev}, tmp + "/commands/dcb_pfc." + d.netdev + ".txt");
    } else {
      std::string captured;
      status = ReadSmall(c.captured + "/commands/mlnx_qos." + d.netdev + ".txt", &captured) ? "captured" : "not in --root";
      if (status == "captured") WriteText(tmp + "/" + qos, captured + "\n");
    }
    c.tools["mlnx_qos"] = status;
    if (status == "ran" || status == "captured") d.mlnx_qos = qos;
  }
  if (live) {
    c.tools["rdma link show"] = RunTool({"rdma", "link", "show"}, tmp + "/commands/rdma_link.txt");
    c.tools["rdma statistic show"] = RunTool({"rdma", "statistic", "show"}, tmp + "/commands/rdma_statistic.txt");
  }

}

void WriteManifest(const Collection& c, const std::vector<Device>& devices, int samples, double interval) {
  const std::string& root = c.root;
  std::string host = "unknown", kernel;
  if (!ReadSmall(root + "/proc/sys/kernel/hostname", &host)) host = "unknown";
  ReadSmall(root + "/proc/version", &kernel);
  char when[64];
  std::time_t now = std::time(nullptr);
  std::strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  JsonWriter w;
  w.BeginObject();
  w.String("tool", "rocelab collect").String("version", "0.1.0").String("host", host).String("time_utc", when);
  w.String("kernel", kernel).String("root", c.live ? "/" : c.captured).Int("samples", samples).Double("interval_s", interval, 3);
  w.BeginArray("devices");
  for (const Device& d : devices) {
    w.BeginObject();
    w.String("rdma_device", d.rdma).String("port", d.port).String("netdev", d.netdev);
    w.Int("mtu", d.mtu).Int("speed_mbps", d.speed);
    if (!d.operstate.empty()) w.String("operstate", d.operstate);
    w.BeginArray("counter_files");
    for (const std::string& f : d.counter_files) w.StringValue(f);
    w.EndArray();
    w.BeginObject("cc_params");
    for (const auto& [k, v] : d.cc_params) w.String(k, v);
    w.EndObject();
    if (!d.mlnx_qos.empty()) w.String("mlnx_qos", d.mlnx_qos);
    w.EndObject();
  }
  w.EndArray();
  w.BeginObject("tools");
  for (const auto& [k, v] : c.tools) w.String(k, v);
  w.EndObject();
  w.EndObject();
  WriteText(c.tmp + "/manifest.json", w.str());
}

// Leaves nothing half-written behind.
void RemoveTree(const std::string& tmp) {
  std::vector<std::string> stack{tmp};
  std::vector<std::string> all;
  while (!stack.empty()) {
    std::string p = stack.back();
    stack.pop_back();
    all.push_back(p);
    for (const std::string& n : ListDir(p))
      if (IsDir(p + "/" + n)) stack.push_back(p + "/" + n);
      else ::unlink((p + "/" + n).c_str());
  }
  for (auto it = all.rbegin(); it != all.rend(); ++it) ::rmdir(it->c_str());
}

}  // namespace

CollectSummary Collect(const CollectOptions& o) {
  if (o.out.empty()) throw std::runtime_error("--out is required");
  struct stat st;
  if (::stat(o.out.c_str(), &st) == 0) throw std::runtime_error(o.out + " already exists (a bundle is never overwritten)");
  Collection c;
  c.root = o.root == "/" ? "" : o.root;
  c.live = o.root == "/";
  c.captured = o.root;
  if (!c.live && !IsDir(o.root)) throw std::runtime_error("--root " + o.root + ": not a folder");
  c.ib = c.root + "/sys/class/infiniband";
  if (!IsDir(c.ib)) throw std::runtime_error(c.ib + ": no RDMA devices (is this an RDMA host, or the right --root?)");
  c.tmp = o.out + ".partial";
  if (::mkdir(c.tmp.c_str(), 0755) != 0) throw std::runtime_error("cannot create " + c.tmp + ": " + std::strerror(errno));
  try {
    std::vector<Device> devices = FindDevices(c.ib);
    // A captured tree does not change: one sample, and its counters are totals since they were cleared.
    const int samples = c.live ? 2 : 1;
    auto t0 = std::chrono::steady_clock::now();
    for (int s = 1; s <= samples; ++s) {
      if (s > 1 && o.interval_s > 0) std::this_thread::sleep_for(std::chrono::duration<double>(o.interval_s));
      const std::string sdir = c.tmp + "/sample" + std::to_string(s);
      ::mkdir(sdir.c_str(), 0755);
      CollectSample(c, devices, sdir, s == 1);
    }
    const double interval = c.live ? std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() : 0.0;
    CollectConfiguration(c, devices);
    WriteManifest(c, devices, samples, interval);
    if (std::rename(c.tmp.c_str(), o.out.c_str()) != 0) throw std::runtime_error("cannot create " + o.out);
    CollectSummary sum;
    sum.devices = static_cast<int>(devices.size());
    for (const auto& [k, v] : c.tools) sum.tools.push_back(k + ": " + v);
    return sum;
  } catch (...) {
    RemoveTree(c.tmp);
    throw;
  }
}

}  // namespace rocelab
