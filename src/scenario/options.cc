#include "scenario/options.h"

#include <cmath>
#include <cstdio>
#include <cstring>

#include "util/json_writer.h"
#include "util/units.h"

namespace rocelab {

const char* Option::leaf() const {
  const char* dot = std::strrchr(key, '.');
  return dot ? dot + 1 : key;
}

const std::vector<const Option*>& ScenarioOptions() {
  using namespace opt;  // NOLINT: the list names every option of options.h
  static const std::vector<const Option*> kAll = {
      &kName, &kSeed, &kDuration,
      &kTopology, &kTopologyType, &kTopologySpines, &kTopologyLeaves, &kTopologyHostsPerLeaf, &kTopologyK,
      &kTopologyHostLink, &kTopologyFabricLink, &kTopologyLink, &kTopologyHosts, &kTopologySwitches,
      &kTopologyLinks, &kTopologyLinksA, &kTopologyLinksB, &kLinkRate, &kLinkDelay, &kLinkLength, &kLinkBer,
      &kSwitch, &kSwitchAsic, &kSwitchBuffer, &kSwitchCell, &kSwitchPipelineLatency, &kSwitchLosslessPriorities,
      &kSwitchPfc, &kSwitchPfcEnabled, &kSwitchPfcHeadroom, &kSwitchPfcSmallPacketPercentage, &kSwitchPfcAlpha,
      &kSwitchPfcXonOffset, &kSwitchPfcXon,
      &kSwitchPfcQuanta, &kSwitchPfcResponseTime, &kSwitchPfcOverSubscribeRatio,
      &kSwitchEcn, &kSwitchEcnEnabled, &kSwitchEcnPriorities, &kSwitchEcnKmin, &kSwitchEcnKmax, &kSwitchEcnPmax, &kSwitchEcnMark,
      &kSwitchEts, &kSwitchEtsStrict, &kSwitchEtsWeights,
      &kSwitchPfcWatchdog, &kSwitchPfcWatchdogEnabled, &kSwitchPfcWatchdogDetectionTime,
      &kSwitchPfcWatchdogRestorationTime, &kSwitchPfcWatchdogAction, &kSwitchPfcWatchdogPollInterval,
      &kSwitchTrust, &kSwitchDscpToPriority, &kSwitchLossyAlpha, &kSwitchEgressLossyAlpha, &kSwitchMtu,
      &kSwitchLinkDownDetection, &kSwitchRouteConvergence, &kSwitchLinkDebounce, &kSwitchLinkUpTime,
      &kNic, &kNicMtu, &kNicCc,
      &kNicDcqcn, &kNicDcqcnProfile, &kNicDcqcnG, &kNicDcqcnAlphaUpdatePeriod, &kNicDcqcnInitialAlpha,
      &kNicDcqcnRateReducePeriod, &kNicDcqcnRateIncreasePeriod, &kNicDcqcnByteCounter,
      &kNicDcqcnFastRecoveryStages, &kNicDcqcnAiRate, &kNicDcqcnHaiRate, &kNicDcqcnMinRate,
      &kNicDcqcnMinDecFactor, &kNicDcqcnClampTargetRate, &kNicDcqcnMinTimeBetweenCnps, &kNicDcqcnCnpModeration,
      &kNicDctcp, &kNicDctcpG, &kNicDctcpInitialAlpha, &kNicDctcpRateAi, &kNicDctcpMinRate,
      &kNicTimely, &kNicTimelyAlpha, &kNicTimelyBeta, &kNicTimelyTLow, &kNicTimelyTHigh, &kNicTimelyMinRtt,
      &kNicTimelyRateAi, &kNicTimelyRateHai, &kNicTimelyHaiAfter, &kNicTimelyMinRate,
      &kNicHpcc, &kNicHpccEta, &kNicHpccMaxStage, &kNicHpccRateAi, &kNicHpccFastReact, &kNicHpccSampleFeedback,
      &kNicHpccMinRate, &kNicHpccIntFormat, &kNicHpccIntMulti,
      &kNicWindow, &kNicWindowEnabled, &kNicWindowScaleWithRate,
      &kNicAckEvery, &kNicCoalesceAcks, &kNicProfile, &kNicTimeout, &kNicRetryCount, &kNicAdaptiveRetransmission,
      &kNicAdaptiveRetransmissionEnabled,
      &kNicAdaptiveRetransmissionTimeBase, &kNicAdaptiveRetransmissionInitialLow, &kNicAdaptiveRetransmissionInitialRange,
      &kNicAdaptiveRetransmissionSlowRestart, &kNicBackToChunk,
      &kNicRxBuffer, &kNicRxDrainRate, &kNicRxXoff, &kNicRxXon, &kNicProcessingDelay, &kNicPfc,
      &kNicLosslessPriorities, &kNicDscpToPriority, &kNicCnpDscp, &kNicTrust, &kNicPfcPreventionTout,
      &kWorkload, &kWorkloadType, &kWorkloadStart, &kWorkloadPriority, &kWorkloadDscp, &kWorkloadSize,
      &kWorkloadSrc, &kWorkloadDst, &kWorkloadHosts,
      &kBackgroundCc, &kBackgroundRto, &kIncastSenders, &kIncastJitter, &kIncastQps,
      &kTraceCdf, &kTraceLoad, &kTraceDuration,
      &kAllreduceHosts, &kAllreduceSlice, &kAllreduceQps, &kAllreduceIterations, &kAllreduceCompute,
      &kAllreduceStraggler, &kAllreduceStragglerCompute,
      &kStorageClients, &kStorageTargets, &kStorageQueueDepth, &kStorageParallelism, &kStorageIoSize,
      &kStorageCommandSize, &kStorageResponseSize, &kStorageServiceTime, &kStorageService, &kStorageDuration,
      &kRoutes, &kRoutesSwitch, &kRoutesDst, &kRoutesPort, &kDevices,
      &kFaults, &kFaultsKind, &kFaultsTarget, &kFaultsAt, &kFaultsDuration, &kFaultsPeriod, &kFaultsCount,
      &kFaultsPreFecBer, &kFaultsFec, &kFaultsLinkFault, &kFaultsFecBypassIndication, &kFaultsRate, &kFaultsShare, &kFaultsKmin, &kFaultsKmax, &kFaultsPmax,
      &kFaultsDscpToPriority, &kFaultsTrust, &kFaultsLosslessPriorities, &kFaultsEcnPriorities, &kFaultsMtu, &kFaultsHeadroom,
      &kFaultsCable, &kFaultsDrainRate, &kFaultsRoutes, &kTimers, &kTimersScale, &kMonitor, &kMonitorInterval, &kMonitorPhase, &kMonitorRefresh,
      &kMonitorCounterpoll, &kMonitorCounterpollPort, &kMonitorCounterpollQueue, &kMonitorCounterpollWatermark,
      &kMonitorProbes, &kMonitorProbesInterval, &kMonitorProbesTimeout, &kMonitorProbesFabricPeers, &kMonitorProbesDscp,
      &kRecovery, &kRecoveryMode,
      &kRecoveryDelay, &kRecoveryDelayT2, &kRecoveryDelayT3, &kLifecycle, &kLifecycleCounterfactual, &kLifecycleWindow,
      &kCost, &kCostGpus, &kCostPerGpuHour, &kCostPerHour, &kCostCurrency, &kCostCheckpoint, &kCostCheckpointInterval,
      &kCostCheckpointSinceLast, &kCostCheckpointRestart, &kCostResponse, &kCostResponseT2, &kCostResponseT3, &kTelemetry, &kTelemetryInterval,
      &kTelemetrySeries,
  };
  return kAll;
}

bool IsScenarioOption(const Option& o) {
  for (const Option* p : ScenarioOptions())
    if (p == &o) return true;
  return false;
}

namespace {

// The largest unit that gives a whole number: what a user would write.
std::string SizeText(double bytes) {
  const auto b = static_cast<uint64_t>(bytes);
  const char* units[] = {"GB", "MB", "KB"};
  const uint64_t scale[] = {1ull << 30, 1ull << 20, 1ull << 10};
  for (int i = 0; i < 3; ++i)
    if (b && b % scale[i] == 0) return std::to_string(b / scale[i]) + units[i];
  return std::to_string(b) + "B";
}

std::string TimeText(double ps) { return FormatTime(static_cast<Time>(ps)); }

std::string NumberText(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

std::string LengthText(double m) {
  return m >= 1000 && std::fmod(m, 1000) == 0 ? NumberText(m / 1000) + "km" : NumberText(m) + "m";
}

// One value of the option's unit, as the user writes it.
std::string ValueText(const Option& o, double v) {
  switch (o.unit) {
    case Unit::kSize: return SizeText(v);
    case Unit::kRate: return FormatRate(static_cast<uint64_t>(v));
    case Unit::kTime: return TimeText(v);
    case Unit::kLength: return LengthText(v);
    case Unit::kInteger: case Unit::kPriorities: case Unit::kIntegers: return std::to_string(static_cast<int64_t>(v));
    default: return NumberText(v);
  }
}

std::vector<std::string> Words(const char* list) {
  std::vector<std::string> out(1);
  for (const char* c = list; *c; ++c) {
    if (*c == '|') out.emplace_back();
    else out.back() += *c;
  }
  return out;
}

std::string Join(const std::vector<std::string>& words, const char* sep, const char* last) {
  std::string s;
  for (size_t i = 0; i < words.size(); ++i) {
    if (i) s += i + 1 == words.size() ? last : sep;
    s += words[i];
  }
  return s;
}

}  // namespace

std::string ChoiceList(const Option& o) { return Join(Words(o.values ? o.values : ""), ", ", " or "); }

const char* UnitName(Unit unit) {
  switch (unit) {
    case Unit::kSize: return "size";
    case Unit::kRate: return "rate";
    case Unit::kTime: return "time";
    case Unit::kLength: return "length";
    case Unit::kNumber: return "number";
    case Unit::kInteger: return "integer";
    case Unit::kBool: return "bool";
    case Unit::kChoice: return "choice";
    case Unit::kPriorities: return "priorities";
    case Unit::kIntegers: return "integers";
    case Unit::kDscpMap: return "DSCP map";
    case Unit::kText: return "text";
    case Unit::kName: return "name";
    case Unit::kNames: return "names";
    case Unit::kMapping: return "mapping";
    case Unit::kList: return "list";
  }
  return "?";
}

std::string RangeText(const Option& o) {
  switch (o.unit) {
    case Unit::kChoice: return Join(Words(o.values), ", ", ", ");
    case Unit::kDscpMap: return "DSCP 0 to 63: priority 0 to 7";
    case Unit::kSize: case Unit::kRate: case Unit::kTime: case Unit::kLength: case Unit::kNumber:
    case Unit::kInteger: case Unit::kPriorities: case Unit::kIntegers: {
      std::string r;
      if (o.max != kNoLimit) r = ValueText(o, o.min) + " to " + ValueText(o, o.max);
      else if (o.min > 0) r = ValueText(o, o.min) + " or more";
      if (o.values && !r.empty()) r += ", or " + ChoiceList(o);
      return r;
    }
    default: return "";
  }
}

std::string DefaultText(const Option& o) {
  if (o.required) return "required";
  if (o.def_text) return o.def_text;
  if (o.unit == Unit::kBool) return o.def ? "true" : "false";
  if (o.unit == Unit::kPriorities) {
    std::string s = "[";
    const auto mask = static_cast<unsigned>(o.def);
    for (int p = 0; p < 8; ++p)
      if (mask & (1u << p)) s += (s.size() > 1 ? ", " : "") + std::to_string(p);
    return s + "]";
  }
  return ValueText(o, o.def);
}

namespace {

std::string Cell(const std::string& s) {
  std::string out;
  for (char c : s) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

}  // namespace

std::string SchemaMarkdown() {
  std::string s = "| key | unit | range | default | meaning |\n|---|---|---|---|---|\n";
  for (const Option* o : ScenarioOptions()) {
    // A default as written in the file is code; one in words (or "required") is prose.
    const std::string def = DefaultText(*o);
    const bool code = !def.empty() && !o->required && !o->default_in_words;
    s += "| `" + Cell(o->key) + "` | " + UnitName(o->unit) + " | " + Cell(RangeText(*o)) + " | " +
         (code ? "`" + Cell(def) + "`" : Cell(def)) + " | " + Cell(o->help) + " |\n";
  }
  return s;
}

std::string SchemaJson() {
  JsonWriter w;
  w.BeginArray();
  for (const Option* o : ScenarioOptions()) {
    w.BeginObject();
    w.String("key", o->key).String("unit", UnitName(o->unit)).String("range", RangeText(*o));
    if (o->unit == Unit::kChoice) {
      w.BeginArray("values");
      for (const std::string& v : Words(o->values)) w.StringValue(v);
      w.EndArray();
    }
    w.String("default", DefaultText(*o)).Bool("default_in_words", o->default_in_words);
    w.Bool("required", o->required != nullptr).String("help", o->help);
    w.EndObject();
  }
  w.EndArray();
  return w.str() + "\n";
}

}  // namespace rocelab
