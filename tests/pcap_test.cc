// Port captures: the frames synthesized from the model's packets, read back by the real
// tshark, must say what the simulation did; the CRCs are checked against known answers,
// since tshark does not verify the ICRC.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "capture/crc32.h"
#include "capture/pcap_file.h"
#include "capture/port_capture.h"
#include "capture/roce_frame.h"
#include "file_util.h"
#include "test_util.h"

namespace rocelab {
namespace {

// The tshark on PATH. A machine without one fails these tests: scripts/setup.sh installs it.
std::string Tshark() {
  const std::string path = RunCommand("command -v tshark");
  return path.empty() ? "" : path.substr(0, path.find('\n'));
}

using Rows = std::vector<std::vector<std::string>>;

// tshark -r FILE -T fields -e F1 -e F2 ...: one row per frame, a field that is absent is "".
Rows Fields(const std::string& file, const std::vector<std::string>& fields, const std::string& options = "") {
  const std::string tshark = Tshark();
  if (tshark.empty()) {
    ADD_FAILURE() << "tshark not found on PATH: install the Debian package tshark (scripts/setup.sh does)";
    return {};
  }
  std::string cmd = tshark + " -n -r " + file + " -o eth.check_fcs:TRUE -o ip.check_checksum:TRUE " + options +
                    " -T fields -E separator=/t -E occurrence=f";
  for (const std::string& f : fields) cmd += " -e " + f;
  int status = 0;
  const std::string out = RunCommand(cmd + " 2>/dev/null", &status);
  EXPECT_EQ(status, 0) << cmd;
  Rows rows;
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> row;
    size_t start = 0;
    for (;;) {
      const size_t tab = line.find('\t', start);
      row.push_back(line.substr(start, tab == std::string::npos ? std::string::npos : tab - start));
      if (tab == std::string::npos) break;
      start = tab + 1;
    }
    row.resize(fields.size());
    rows.push_back(row);
  }
  return rows;
}

uint64_t U(const std::string& s) { return s.empty() ? ~0ull : std::stoull(s, nullptr, 0); }

// "0.000104677" seconds, as frame.time_epoch prints it, in ns: exactly, no floating point.
int64_t EpochNs(const std::string& s) {
  const size_t dot = s.find('.');
  std::string frac = s.substr(dot + 1);
  frac.resize(9, '0');
  return std::stoll(s.substr(0, dot)) * 1000000000 + std::stoll(frac);
}

std::vector<uint8_t> Hex(const std::string& text) {
  std::vector<uint8_t> out;
  std::string digits;
  for (char c : text)
    if (isxdigit(static_cast<unsigned char>(c))) digits += c;
  for (size_t i = 0; i + 1 < digits.size(); i += 2) out.push_back(static_cast<uint8_t>(std::stoi(digits.substr(i, 2), nullptr, 16)));
  return out;
}

std::string HexOf(const uint8_t* p, size_t n) {
  std::string s;
  char b[3];
  for (size_t i = 0; i < n; ++i) {
    std::snprintf(b, sizeof b, "%02x", p[i]);
    s += b;
  }
  return s;
}

// ---- CRCs ----

TEST(Crc32, StandardCheckValueAndZeroRuns) {
  const std::string check = "123456789";
  EXPECT_EQ(Crc32(reinterpret_cast<const uint8_t*>(check.data()), check.size()), 0xCBF43926u);
  // Runs of zeros taken in O(log n) steps equal feeding them byte by byte.
  std::vector<uint8_t> zeros(70000, 0);
  for (uint64_t n : {0ull, 1ull, 2ull, 3ull, 7ull, 64ull, 1000ull, 4096ull, 4097ull, 9000ull, 65535ull, 70000ull})
    EXPECT_EQ(Crc32UpdateZeros(0x12345678u, n), Crc32Update(0x12345678u, zeros.data(), n)) << n;
}

// A CNP captured from a ConnectX-4 Lx NIC, as published in scapy's RoCE tests
// (test/contrib/roce.uts, "RoCE CNP captured on ConnectX-4 Lx"): Ethernet through ICRC, no FCS.
// Its last four bytes are the ICRC the NIC computed. DSCP 48 with ECT(0), TTL 64, BECN set.
TEST(Crc32, IcrcOfACnpCapturedFromAConnectX4Lx) {
  const std::vector<uint8_t> frame = Hex(
      "e41d 2dab 2bc2 7cfe 9064 3b32 0800 45c2"
      "003c 718c 4000 4011 9161 0a00 1101 0a00"
      "1201 0000 12b7 0028 0000 8100 ffff 4000"
      "0118 0000 0000 0000 0000 0000 0000 0000"
      "0000 0000 0000 82fd 002a");
  ASSERT_EQ(frame.size(), 74u);
  const uint8_t* ip = frame.data() + 14;
  uint8_t icrc[4];
  PutCrc32(RoceIcrc(ip, 60 - 4, 0), icrc);
  EXPECT_EQ(HexOf(icrc, 4), "82fd002a");
  // The masked fields are what routers may change: other values there give the same ICRC.
  std::vector<uint8_t> changed(ip, ip + 56);
  changed[1] = 0x03;                 // DSCP 0, CE
  changed[8] = 0x01;                 // TTL 1
  changed[10] = changed[11] = 0;     // header checksum
  changed[26] = changed[27] = 0xAB;  // UDP checksum
  changed[32] = 0x80;                // FECN instead of BECN
  PutCrc32(RoceIcrc(changed.data(), changed.size(), 0), icrc);
  EXPECT_EQ(HexOf(icrc, 4), "82fd002a");
  changed[12] ^= 1;  // the source address is not masked
  PutCrc32(RoceIcrc(changed.data(), changed.size(), 0), icrc);
  EXPECT_NE(HexOf(icrc, 4), "82fd002a");
}

// A synthesized RDMA WRITE First with 1024 bytes of payload and a CE mark. The expected ICRC
// and FCS were computed apart from this code, with Python's zlib.crc32, by
// tests/data/roce_icrc.py over the frame this test writes (the masking there is its own).
TEST(Crc32, SynthesizedWriteFirstMatchesZlib) {
  Packet pkt{};
  pkt.type = PacketType::kData;
  pkt.opcode = kOpWriteFirst;
  pkt.qp = 5;
  pkt.psn = 0x123456;
  pkt.src = 3;
  pkt.dst = 12;
  pkt.payload = 1024;
  pkt.frame_bytes = static_cast<uint16_t>(DataFrameBytes(1024, true));
  pkt.udp_sport = 0xC0DE;
  pkt.dscp = kRoceDscp;
  pkt.ecn = kCe;
  pkt.ttl = 63;
  SynthFrame f;
  FrameSynthesizer synth;
  synth.Build(pkt, SwitchMac(1), HostMac(12), &f);
  FrameSynthesizer::Seal(pkt, &f);
  ASSERT_EQ(f.length(), 1102u);
  // Ethernet (to h12's MAC from leaf1's), IPv4 (TOS 0x6b: DSCP 26, CE), UDP 4791, BTH, RETH.
  EXPECT_EQ(HexOf(f.headers, f.header_bytes),
            "02000000000c" "020001000001" "0800"
            "456b043c00004000" "3f112336" "0a010003" "0a01000c"
            "c0de12b704280000"
            "0600ffff" "00000105" "00123456"
            "0000000600000000" "00000105" "00000400");
  // tests/data/roce_icrc.py over this frame prints: 1 1102 icrc d23e7c11 ok fcs afd821a4 ok
  EXPECT_EQ(HexOf(f.icrc, 4), "d23e7c11");
  EXPECT_EQ(HexOf(f.fcs, 4), "afd821a4");
  // The frame as a capture file, through tshark: a good FCS and IP checksum, the ICRC in place.
  const std::string file = TempDir("pcap") + "/write-first.pcap";
  PcapFile pcap;
  std::string err;
  ASSERT_TRUE(pcap.Open(file, PcapFile::kDefaultSnaplen, &err)) << err;
  f.CopyTo(pcap.Record(5 * kMicrosecond, f.length(), f.length()), f.length());
  ASSERT_TRUE(pcap.Commit(&err)) << err;
  const Rows rows = Fields(file, {"frame.len", "eth.fcs.status", "ip.checksum.status", "infiniband.invariant.crc"});
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0], (std::vector<std::string>{"1102", "1", "1", "0xd23e7c11"}));
}

// ---- Every frame kind, decoded by tshark ----

// One packet of each kind the model sends, with the queue pair they belong to: tshark must
// read back the opcode, QPN, PSN and every extended header's fields.
TEST(PcapFrames, EveryOpcodeDecodes) {
  std::vector<QueuePair> qps(8);
  QueuePair& qp = qps[7];
  qp.id = 7;
  qp.mtu = 1024;
  qp.Post(Verb::kWrite, 3000, 0, 0);     // PSNs 0..2
  qp.Post(Verb::kWriteImm, 100, 0, 0);   // PSN 3
  qp.Post(Verb::kRead, 2048, 0, 0);      // PSNs 4..5
  qp.Post(Verb::kSend, 1, 0, 0);         // PSN 6
  struct Case {
    PacketType type;
    uint8_t opcode;
    uint32_t psn, payload, frame;
    bool last;
    // What tshark must show: A bit, RETH DMA length and VA, AETH syndrome (0x1f ACK, 0x60 NAK
    // PSN sequence error, in decimal) and MSN, ImmDt.
    std::string a, dmalen, va, syndrome, msn, immdt;
  };
  const std::vector<Case> cases = {
      {PacketType::kData, kOpWriteFirst, 0, 1024, DataFrameBytes(1024, true), false, "0", "3000", "0x0000000800000000", "", "", ""},
      {PacketType::kData, kOpWriteMiddle, 1, 1024, DataFrameBytes(1024, false), false, "0", "", "", "", "", ""},
      {PacketType::kData, kOpWriteLast, 2, 952, DataFrameBytes(952, false), true, "1", "", "", "", "", ""},
      {PacketType::kAck, kOpAcknowledge, 2, 0, kAckFrameBytes, false, "0", "", "", "31", "1", ""},
      {PacketType::kData, kOpWriteOnlyImm, 3, 100, DataFrameBytes(100, true) + kImmDt, true, "1", "100", "0x0000000800000c00", "", "", "00000000"},
      {PacketType::kNak, kOpAcknowledge, 3, 0, kAckFrameBytes, false, "0", "", "", "96", "1", ""},
      {PacketType::kReadRequest, kOpReadRequest, 4, 0, DataFrameBytes(0, true), false, "0", "2048", "0x0000000800001000", "", "", ""},
      {PacketType::kReadResponse, kOpReadResponseFirst, 4, 1024, DataFrameBytes(1024, false) + kAeth, false, "0", "", "", "31", "2", ""},
      {PacketType::kReadResponse, kOpReadResponseLast, 5, 1024, DataFrameBytes(1024, false) + kAeth, true, "1", "", "", "31", "3", ""},
      // One byte of payload: a 63-byte frame, padded to Ethernet's 64.
      {PacketType::kData, kOpSendOnly, 6, 1, DataFrameBytes(1, false), true, "1", "", "", "", "", ""},
      {PacketType::kCnp, kOpCnp, 6, 0, kCnpFrameBytes, false, "0", "", "", "", "", ""},
  };
  const std::string file = TempDir("pcap") + "/kinds.pcap";
  {
    PcapFile pcap;
    std::string err;
    ASSERT_TRUE(pcap.Open(file, PcapFile::kDefaultSnaplen, &err)) << err;
    FrameSynthesizer synth(&qps);
    SynthFrame f;
    Time t = 0;
    for (const Case& c : cases) {
      Packet pkt{};
      pkt.type = c.type;
      pkt.opcode = c.opcode;
      pkt.qp = 7;
      pkt.psn = c.psn;
      pkt.src = 1;
      pkt.dst = 2;
      pkt.payload = c.payload;
      pkt.frame_bytes = static_cast<uint16_t>(c.frame);
      pkt.udp_sport = 50000;
      pkt.dscp = c.type == PacketType::kCnp ? kCnpDscp : kRoceDscp;
      pkt.ecn = c.type == PacketType::kData ? kEct0 : kNotEct;
      pkt.ttl = 64;
      pkt.flags = c.last ? Packet::kFlagLast : 0;
      if (c.type == PacketType::kReadRequest) pkt.read_bytes = 2048;
      synth.Build(pkt, HostMac(1), SwitchMac(0), &f);
      FrameSynthesizer::Seal(pkt, &f);
      EXPECT_EQ(f.length(), c.frame) << int(c.opcode);
      f.CopyTo(pcap.Record(t += kMicrosecond, f.length(), f.length()), f.length());
    }
    Packet pfc{};
    pfc.type = PacketType::kPause;
    pfc.frame_bytes = kPauseFrame;
    pfc.pause_enable = 1u << 3 | 1u << 5;
    pfc.pause_quanta[3] = 0xFFFF;
    pfc.pause_quanta[5] = 7;
    synth.Build(pfc, SwitchMac(0), 0, &f);
    FrameSynthesizer::Seal(pfc, &f);
    EXPECT_EQ(f.length(), kPauseFrame);
    f.CopyTo(pcap.Record(t += kMicrosecond, f.length(), f.length()), f.length());
    ASSERT_TRUE(pcap.Commit(&err)) << err;
  }
  const Rows rows =
      Fields(file, {"frame.len", "eth.fcs.status", "ip.checksum.status", "udp.dstport", "udp.srcport", "ip.src", "ip.dst",
                    "infiniband.bth.opcode", "infiniband.bth.destqp", "infiniband.bth.psn", "infiniband.bth.a",
                    "infiniband.reth.dmalen", "infiniband.reth.va", "infiniband.aeth.syndrome", "infiniband.aeth.msn",
                    "infiniband.immdt", "ip.dsfield.dscp", "infiniband.bth.p_key", "infiniband.bth"});
  ASSERT_EQ(rows.size(), cases.size() + 1);
  for (size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    const std::vector<std::string>& r = rows[i];
    SCOPED_TRACE("frame " + std::to_string(i + 1) + ", opcode " + std::to_string(c.opcode));
    EXPECT_EQ(U(r[0]), c.frame);
    EXPECT_EQ(r[1], "1");  // FCS good
    EXPECT_EQ(r[2], "1");  // IPv4 header checksum good
    EXPECT_EQ(r[3], "4791");
    EXPECT_EQ(r[4], "50000");
    EXPECT_EQ(r[5], "10.1.0.1");
    EXPECT_EQ(r[6], "10.1.0.2");
    EXPECT_EQ(U(r[7]), c.opcode);
    EXPECT_EQ(U(r[8]), 0x107u);
    EXPECT_EQ(U(r[9]), c.type == PacketType::kCnp ? 0u : c.psn);  // a CNP's PSN is reserved
    EXPECT_EQ(r[10] == "1" || r[10] == "True" ? "1" : "0", c.a);
    EXPECT_EQ(r[11], c.dmalen);
    EXPECT_EQ(r[12], c.va);
    EXPECT_EQ(r[13], c.syndrome);
    EXPECT_EQ(r[14], c.msn);
    EXPECT_EQ(r[15], c.immdt);
    EXPECT_EQ(U(r[16]), c.type == PacketType::kCnp ? 48u : 26u);
    EXPECT_EQ(U(r[17]), 0xFFFFu);
  }
  // The CNP's BTH sets BECN, in the byte after the P_Key (no field of its own in tshark).
  std::string cnp_bth = rows[cases.size() - 1][18];
  cnp_bth.erase(std::remove(cnp_bth.begin(), cnp_bth.end(), ':'), cnp_bth.end());
  EXPECT_EQ(cnp_bth, "8100ffff4000010700000000");
  const Rows pfc = Fields(file, {"eth.dst", "eth.type", "macc.opcode", "macc.cbfc.enbv", "macc.cbfc.pause_time.c3",
                                 "macc.cbfc.pause_time.c5", "macc.cbfc.pause_time.c0", "frame.len"},
                          "-Y macc");
  ASSERT_EQ(pfc.size(), 1u);
  EXPECT_EQ(pfc[0], (std::vector<std::string>{"01:80:c2:00:00:01", "0x8808", "0x0101", "0x0028", "65535", "7", "0", "64"}));
}

// A probe and its reply (run/pingmesh.h): UD SEND only from the probing agents' UD queue pair,
// with the DETH that names it and a payload of four timestamps: 102 bytes.
TEST(PcapFrames, ProbesDecodeAsUdSendOnlyWithTheirDeth) {
  const std::string file = TempDir("pcap") + "/probes.pcap";
  {
    PcapFile pcap;
    std::string err;
    ASSERT_TRUE(pcap.Open(file, PcapFile::kDefaultSnaplen, &err)) << err;
    FrameSynthesizer synth(nullptr);
    SynthFrame f;
    Time t = 0;
    for (PacketType type : {PacketType::kProbe, PacketType::kProbeReply}) {
      Packet pkt{};
      pkt.type = type;
      pkt.opcode = kOpUdSendOnly;
      pkt.qp = Packet::kNoQp;
      pkt.psn = 41;
      pkt.src = type == PacketType::kProbe ? 1 : 2;
      pkt.dst = type == PacketType::kProbe ? 2 : 1;
      pkt.payload = kProbePayload;
      pkt.frame_bytes = kProbeFrameBytes;
      pkt.udp_sport = 49153;
      pkt.dscp = kRoceDscp;
      pkt.ecn = kEct0;
      pkt.ttl = 64;
      synth.Build(pkt, HostMac(pkt.src), SwitchMac(0), &f);
      FrameSynthesizer::Seal(pkt, &f);
      EXPECT_EQ(f.length(), 102u);
      f.CopyTo(pcap.Record(t += kMicrosecond, f.length(), f.length()), f.length());
    }
    ASSERT_TRUE(pcap.Commit(&err)) << err;
  }
  const Rows rows = Fields(file, {"frame.len", "eth.fcs.status", "ip.src", "udp.srcport", "infiniband.bth.opcode",
                                  "infiniband.bth.destqp", "infiniband.bth.psn", "infiniband.deth.q_key",
                                  "infiniband.deth.srcqp"});
  ASSERT_EQ(rows.size(), 2u);
  for (size_t i = 0; i < rows.size(); ++i) {
    const std::vector<std::string>& r = rows[i];
    EXPECT_EQ(r[0], "102");
    EXPECT_EQ(r[1], "1");
    EXPECT_EQ(r[2], i == 0 ? "10.1.0.1" : "10.1.0.2");
    EXPECT_EQ(r[3], "49153");
    EXPECT_EQ(U(r[4]), 0x64u);
    EXPECT_EQ(U(r[5]), 0xF0u);
    EXPECT_EQ(U(r[6]), 41u);
    EXPECT_EQ(U(r[7]), 0x1234u);
    EXPECT_EQ(U(r[8]), 0xF0u);
  }
}

// ---- A simulated incast, captured ----

// Seven senders into h0 behind one switch: DCQCN, ECN marks at leaf0's port to h0, CNPs back,
// and a buffer small enough that leaf0 pauses the senders.
const char* kIncast =
    "name: pcap-incast\n"
    "duration: 2ms\n"
    "topology: {type: spine-leaf, spines: 1, leaves: 1, hosts_per_leaf: 8, host_link: {rate: 100G, delay: 1us}}\n"
    "switch:\n"
    "  buffer: 768KB\n"
    "  lossless_priorities: [3]\n"
    "  pfc: {enabled: true, headroom: auto}\n"
    "  ecn: {enabled: true, kmin: 20KB, kmax: 100KB, pmax: 0.2}\n"
    "nic: {mtu: 4096, cc: dcqcn}\n"
    "workload:\n"
    "  - {type: flow, src: h1, dst: h0, size: 512KB, priority: 3}\n"
    "  - {type: flow, src: h2, dst: h0, size: 512KB, priority: 3}\n"
    "  - {type: flow, src: h3, dst: h0, size: 512KB, priority: 3}\n"
    "  - {type: flow, src: h4, dst: h0, size: 256KB, priority: 3}\n"
    "  - {type: flow, src: h5, dst: h0, size: 256KB, priority: 3}\n"
    "  - {type: flow, src: h6, dst: h0, size: 256KB, start: 50us, priority: 3}\n"
    "  - {type: flow, src: h7, dst: h0, size: 256KB, start: 50us, priority: 3}\n";

struct Captured {
  std::string file;
  std::unique_ptr<PortCapture> capture;
};

Captured Capture(TestRun& run, const std::string& dir, const std::string& port, Time from = 0, Time to = kTimeNever,
                 uint32_t snaplen = PcapFile::kDefaultSnaplen) {
  Captured c;
  c.file = dir + "/" + port + ".pcap";
  int node = -1, index = -1;
  std::string err;
  EXPECT_TRUE(ResolveCapturePort(run->topology(), port, &node, &index, &err)) << err;
  auto file = std::make_unique<PcapFile>();
  EXPECT_TRUE(file->Open(c.file, snaplen, &err)) << err;
  c.capture = std::make_unique<PortCapture>(&*run, node, index, from, to, std::move(file));
  return c;
}

class PcapIncast : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new std::string(TempDir("pcap"));
    run_ = new TestRun(StartYaml(kIncast));
    TestRun& run = *run_;
    receiver_ = new Captured(Capture(run, *dir_, "leaf0:h0"));
    sender_ = new Captured(Capture(run, *dir_, "leaf0:h1"));
    window_ = new Captured(Capture(run, *dir_, "h2", kFrom, kTo));
    snapped_ = new Captured(Capture(run, *dir_, "leaf0:Ethernet12", 0, kTimeNever, 100));  // toward h3
    // The counters of h2's port just before the window opens and just before it closes: the
    // frames it counted inside the window are the difference.
    run->RunUntil(kFrom - 1);
    at_from_ = run->nic("h2").port(0).counters;
    run->RunUntil(kTo - 1);
    at_to_ = run->nic("h2").port(0).counters;
    run.run->Run();
    std::string err;
    for (Captured* c : {receiver_, sender_, window_, snapped_}) EXPECT_TRUE(c->capture->Finish(&err)) << err;
  }

  static void TearDownTestSuite() {
    for (Captured* c : {receiver_, sender_, window_, snapped_}) delete c;
    delete run_;
    delete dir_;
  }

  static constexpr Time kFrom = 100 * kMicrosecond, kTo = 200 * kMicrosecond;
  static std::string* dir_;
  static TestRun* run_;
  static Captured *receiver_, *sender_, *window_, *snapped_;
  static PortCounters at_from_, at_to_;
};

std::string* PcapIncast::dir_;
TestRun* PcapIncast::run_;
Captured *PcapIncast::receiver_, *PcapIncast::sender_, *PcapIncast::window_, *PcapIncast::snapped_;
PortCounters PcapIncast::at_from_, PcapIncast::at_to_;

TEST_F(PcapIncast, TheRunDidWhatTheTestNeeds) {
  const Totals t = ComputeTotals(**run_);
  EXPECT_EQ(t.drops_lossless, 0u);
  EXPECT_GT(t.pause_frames_tx, 0u);
  EXPECT_GT(t.ecn_marked, 0u);
  EXPECT_GT(t.cnp_sent, 0u);
  for (const QueuePair& qp : (*run_)->qps()) EXPECT_TRUE(qp.done);
}

// The port toward the receiver: every frame, the data's PSNs in order per queue pair, the
// CE marks this queue made, the ACKs and CNPs coming back.
TEST_F(PcapIncast, ReceiverPortDecodesToWhatTheSimulationSent) {
  const Fabric& f = **run_;
  const PortCounters port = f.sw("leaf0").port_counters(0);
  const Rows rows = Fields(receiver_->file, {"frame.len", "eth.src", "eth.dst", "eth.fcs.status", "ip.checksum.status",
                                             "ip.dsfield.ecn", "ip.dsfield.dscp", "ip.ttl", "udp.dstport",
                                             "infiniband.bth.opcode", "infiniband.bth.destqp", "infiniband.bth.psn",
                                             "infiniband.bth.a", "infiniband.reth.dmalen", "infiniband.aeth.msn"});
  ASSERT_EQ(rows.size(), port.Sent().packets + port.Received().packets);
  uint64_t bytes = 0, ce = 0, cnps = 0, acks = 0;
  std::map<uint32_t, std::vector<uint32_t>> psns;  // by QP index, in capture order
  std::map<uint32_t, uint64_t> last_msn;
  for (const auto& r : rows) {
    bytes += U(r[0]);
    EXPECT_EQ(r[3], "1");
    EXPECT_EQ(r[4], "1");
    EXPECT_EQ(r[8], "4791");
    const uint64_t opcode = U(r[9]);
    const uint32_t qp = static_cast<uint32_t>(U(r[10]) - kQpnBase);
    ASSERT_LT(qp, f.qps().size());
    const bool to_h0 = r[2] == "02:00:00:00:00:00";
    if (opcode >= kOpWriteFirst && opcode <= kOpWriteOnly) {
      EXPECT_TRUE(to_h0);
      EXPECT_EQ(r[1], "02:00:01:00:00:00");  // from leaf0
      EXPECT_EQ(U(r[7]), 63u);                // one hop: the TTL went down once
      EXPECT_EQ(U(r[6]), kRoceDscp);
      psns[qp].push_back(static_cast<uint32_t>(U(r[11])));
      if (opcode == kOpWriteFirst) {
        EXPECT_EQ(U(r[13]), f.qps()[qp].size);
      }
      EXPECT_EQ(r[12] == "1" || r[12] == "True", opcode == kOpWriteLast) << "A bit on the last packet";
      ce += U(r[5]) == kCe;
      if (U(r[5]) != kCe) {
        EXPECT_EQ(U(r[5]), kEct0);
      }
    } else if (opcode == kOpCnp) {
      EXPECT_FALSE(to_h0);
      EXPECT_EQ(U(r[6]), kCnpDscp);
      ++cnps;
    } else {
      ASSERT_EQ(opcode, kOpAcknowledge);
      EXPECT_FALSE(to_h0);
      last_msn[qp] = U(r[14]);
      ++acks;
    }
  }
  EXPECT_EQ(bytes, port.Sent().bytes + port.Received().bytes);
  // Lossless: each queue pair's PSNs 0, 1, 2, ... once each, in order; its last ACK completes
  // its one message.
  ASSERT_EQ(psns.size(), f.qps().size());
  for (const auto& [qp, seq] : psns) {
    ASSERT_EQ(seq.size(), f.qps()[qp].num_packets) << "qp " << qp;
    for (size_t i = 0; i < seq.size(); ++i) ASSERT_EQ(seq[i], i) << "qp " << qp;
    EXPECT_EQ(last_msn[qp], 1u) << "qp " << qp;
  }
  // The marks this queue made are the CE frames it sent, and what h0 counted.
  EXPECT_GT(ce, 0u);
  EXPECT_EQ(ce, f.sw("leaf0").queue_counters(0, 3).ecn_marked);
  EXPECT_EQ(ce, f.nic("h0").rdma().np_ecn_marked_roce_packets);
  EXPECT_EQ(cnps, f.nic("h0").rdma().np_cnp_sent);
  EXPECT_GT(acks, 0u);
  std::printf("leaf0:h0: %zu frames, %llu bytes, %llu CE, %llu CNPs, %llu ACKs\n", rows.size(),
              (unsigned long long)bytes, (unsigned long long)ce, (unsigned long long)cnps, (unsigned long long)acks);
}

// A sender's switch port: the pause frames leaf0 sent h1, XOFF with the full quanta and XON
// with zero, for priority 3 only; h1's data arriving; the CNPs leaf0 forwards to h1.
TEST_F(PcapIncast, PfcFramesDecodeWithTheQuantaSent) {
  const Fabric& f = **run_;
  const PortCounters port = f.sw("leaf0").port_counters(1);
  const Rows rows = Fields(sender_->file, {"eth.type", "eth.src", "eth.dst", "macc.opcode", "macc.cbfc.enbv",
                                           "macc.cbfc.pause_time.c3", "macc.cbfc.pause_time.c0", "infiniband.bth.opcode",
                                           "frame.len"});
  ASSERT_EQ(rows.size(), port.Sent().packets + port.Received().packets);
  std::vector<uint64_t> quanta;
  uint64_t cnps = 0;
  for (const auto& r : rows) {
    if (r[0] != "0x8808") {
      cnps += U(r[7]) == kOpCnp;
      continue;
    }
    EXPECT_EQ(r[1], "02:00:01:00:00:00");
    EXPECT_EQ(r[2], "01:80:c2:00:00:01");
    EXPECT_EQ(r[3], "0x0101");
    EXPECT_EQ(r[4], "0x0008");
    EXPECT_EQ(r[6], "0");
    EXPECT_EQ(r[8], "64");
    quanta.push_back(U(r[5]));
  }
  ASSERT_EQ(quanta.size(), port.tx_pause[3]);
  ASSERT_GT(quanta.size(), 0u);
  // XOFF (65535, sent again while the congestion lasts) and XON (0) in turn, XOFF first.
  uint64_t xoff = 0, xon = 0;
  for (size_t i = 0; i < quanta.size(); ++i) {
    ASSERT_TRUE(quanta[i] == 65535 || quanta[i] == 0) << quanta[i];
    (quanta[i] ? xoff : xon)++;
    if (quanta[i] == 0) {
      EXPECT_TRUE(i > 0 && quanta[i - 1] == 65535) << "an XON follows an XOFF";
    }
  }
  EXPECT_GT(xon, 0u);
  EXPECT_EQ(f.nic("h1").port(0).counters.rx_pause[3], quanta.size());
  EXPECT_EQ(cnps, f.nic("h1").rdma().rp_cnp_handled + f.nic("h1").rdma().rp_cnp_ignored);
  std::printf("leaf0:h1: %zu frames, %llu XOFF, %llu XON, %llu CNPs\n", rows.size(), (unsigned long long)xoff,
              (unsigned long long)xon, (unsigned long long)cnps);
}

// A host's port in a window: the frames it counted between FROM and TO, no others.
TEST_F(PcapIncast, WindowTakesWhatThePortCountedInIt) {
  const Rows rows = Fields(window_->file, {"frame.time_epoch", "frame.len"});
  const uint64_t counted = (at_to_.Sent().packets + at_to_.Received().packets) - (at_from_.Sent().packets + at_from_.Received().packets);
  ASSERT_GT(counted, 0u);
  ASSERT_EQ(rows.size(), counted);
  uint64_t bytes = 0;
  int64_t prev = 0;
  for (const auto& r : rows) {
    const int64_t ns = EpochNs(r[0]);
    EXPECT_GE(ns, kFrom / kNanosecond);
    EXPECT_LT(ns, kTo / kNanosecond);
    EXPECT_GE(ns, prev) << "in time order";
    prev = ns;
    bytes += U(r[1]);
  }
  EXPECT_EQ(bytes, (at_to_.Sent().bytes + at_to_.Received().bytes) - (at_from_.Sent().bytes + at_from_.Received().bytes));
  std::printf("h2 in [100us, 200us): %zu frames\n", rows.size());
}

// Snap length 100: each record keeps 100 bytes at most and the frame's full length.
TEST_F(PcapIncast, SnaplenTruncatesAndKeepsTheLength) {
  const PortCounters port = (*run_)->sw("leaf0").port_counters(3);
  const Rows rows = Fields(snapped_->file, {"frame.cap_len", "frame.len", "eth.type", "infiniband.bth.destqp"});
  ASSERT_EQ(rows.size(), port.Sent().packets + port.Received().packets);
  uint64_t bytes = 0, cut = 0;
  for (const auto& r : rows) {
    const uint64_t cap = U(r[0]), len = U(r[1]);
    EXPECT_EQ(cap, std::min<uint64_t>(len, 100));
    cut += len > 100;
    bytes += len;
    if (r[2] == "0x0800") {
      EXPECT_EQ(U(r[3]), kQpnBase + 2) << "h3's flow, whose headers survive the cut";
    }
  }
  EXPECT_GT(cut, 0u);
  EXPECT_EQ(bytes, port.Sent().bytes + port.Received().bytes);
  // The file header says the snap length too.
  std::ifstream in(snapped_->file, std::ios::binary);
  uint8_t header[24];
  in.read(reinterpret_cast<char*>(header), sizeof header);
  EXPECT_EQ(header[16] | header[17] << 8, 100);
  EXPECT_EQ(HexOf(header, 4), "4d3cb2a1");  // nanosecond timestamps
  EXPECT_EQ(header[20], 1);                 // Ethernet
}

// ---- The command line ----

std::string WriteScenario(const std::string& dir) { return WriteFile(dir + "/incast.yaml", kIncast); }

TEST(PcapCommandLine, CapturesAPortWithoutChangingTheRun) {
  const std::string dir = TempDir("pcap");
  const std::string sc = WriteScenario(dir);
  const CommandResult plain = Rocelab("run " + sc + " --out " + dir + "/plain --quiet");
  ASSERT_EQ(plain.status, 0) << plain.output;
  const CommandResult cap = Rocelab("run " + sc + " --out " + dir + "/cap --pcap " + dir + "/h0.pcap --pcap-port=leaf0:h0" +
                             " --pcap-window 50us,150us --snaplen 96");
  ASSERT_EQ(cap.status, 0) << cap.output;
  EXPECT_NE(cap.output.find(" and " + dir + "/h0.pcap ("), std::string::npos) << cap.output;
  EXPECT_FALSE(Exists(dir + "/h0.pcap.tmp"));
  // Capturing changes nothing the simulation does.
  auto read = [](const std::string& p) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return WithoutEngine(ss.str());
  };
  EXPECT_EQ(read(dir + "/plain/summary.json"), read(dir + "/cap/summary.json"));
  const Rows rows = Fields(dir + "/h0.pcap", {"frame.time_epoch", "frame.cap_len", "frame.len", "infiniband.bth.opcode"});
  ASSERT_GT(rows.size(), 0u);
  for (const auto& r : rows) {
    EXPECT_GE(EpochNs(r[0]), 50000);
    EXPECT_LT(EpochNs(r[0]), 150000);
    EXPECT_EQ(U(r[1]), std::min<uint64_t>(U(r[2]), 96));
    EXPECT_NE(r[3], "");
  }
  // A host's one port by the host's name.
  const CommandResult host = Rocelab("run " + sc + " --out " + dir + "/host --quiet --pcap " + dir + "/h3.pcap --pcap-port h3");
  ASSERT_EQ(host.status, 0) << host.output;
  EXPECT_GT(Fields(dir + "/h3.pcap", {"frame.len"}).size(), 0u);
}

TEST(PcapCommandLine, BadOptionsAreUsageErrorsAndWriteNothing) {
  const std::string dir = TempDir("pcap");
  const std::string sc = WriteScenario(dir);
  const std::string out = " --out " + dir + "/never --pcap " + dir + "/never.pcap";
  struct Case {
    std::string args, says;
  };
  const std::vector<Case> cases = {
      {"run " + sc + out + " --pcap-port leaf0:h99", "--pcap-port: 'leaf0' has no port 'h99'"},
      {"run " + sc + out + " --pcap-port leaf9:h1", "--pcap-port: no device named 'leaf9'"},
      {"run " + sc + out + " --pcap-port leaf0", "--pcap-port: 'leaf0' is a switch: name one of its ports"},
      {"run " + sc + out + " --pcap-port leaf0:Ethernet6", "--pcap-port: 'leaf0' has no port 'Ethernet6'"},
      {"run " + sc + out, "--pcap needs --pcap-port"},
      {"run " + sc + out + " --pcap-port h1 --pcap-window 2ms,1ms", "--pcap-window: '2ms,1ms': FROM must be"},
      {"run " + sc + out + " --pcap-port h1 --pcap-window 1,2", "--pcap-window: '1,2' is not FROM,TO"},
      {"run " + sc + out + " --pcap-port h1 --pcap-window 1ms", "--pcap-window: '1ms' is not FROM,TO"},
      {"run " + sc + out + " --pcap-port h1 --snaplen 0", "--snaplen: '0' is not a whole number"},
      {"run " + sc + " --out " + dir + "/never --pcap-port h1", "--pcap-port needs --pcap FILE"},
      {"run " + sc + " --out " + dir + "/never --snaplen 64", "--snaplen needs --pcap FILE"},
      {"run " + sc + " --out " + dir + "/never --pcap " + dir + "/no/such/dir/x.pcap --pcap-port h1", "--pcap: cannot write"},
      {"demo --out " + dir + "/never --pcap " + dir + "/never.pcap --pcap-port spine9:h0", "--pcap-port: no device named 'spine9'"},
  };
  for (const Case& c : cases) {
    const CommandResult r = Rocelab(c.args);
    EXPECT_EQ(r.status, 2) << c.args << "\n" << r.output;
    EXPECT_NE(r.output.find(c.says), std::string::npos) << c.args << "\n" << r.output;
    EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 2) << c.args << "\n" << r.output;
  }
  EXPECT_FALSE(Exists(dir + "/never"));
  EXPECT_FALSE(Exists(dir + "/never.pcap"));
  EXPECT_FALSE(Exists(dir + "/never.pcap.tmp"));
}

}  // namespace
}  // namespace rocelab
