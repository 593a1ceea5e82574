#include "sweep/merge.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>

#include "sweep/results_db.h"
#include "util/config_error.h"
#include "util/json_value.h"

namespace rocelab {
namespace {

[[noreturn]] void Throw(const std::string& file, int line, const std::string& key, const std::string& what) {
  throw ConfigError(file, line, key, what);
}

// The union of the shards' swept keys (JSON arrays), first seen first.
std::string UnionOfKeys(const std::vector<std::string>& lists, const std::string& file) {
  nlohmann::ordered_json all = nlohmann::ordered_json::array();
  for (const std::string& l : lists) {
    if (l.empty()) continue;
    const JsonDocument keys = ParseJsonDocument(l, file, Throw);
    for (const auto& k : keys)
      if (std::find(all.begin(), all.end(), k) == all.end()) all.push_back(k);
  }
  return all.dump();
}

}  // namespace

std::string ResultsPath(const std::string& dir) { return dir + "/results.sqlite"; }

bool SameResult(const std::string& a, const std::string& b) {
  JsonDocument x = ParseJsonDocument(a, "summary", Throw), y = ParseJsonDocument(b, "summary", Throw);
  if (x.is_object()) x.erase("engine");
  if (y.is_object()) y.erase("engine");
  return x == y;
}

MergeCount MergeSweeps(const std::string& out, const std::vector<std::string>& shards) {
  namespace fs = std::filesystem;
  std::vector<std::unique_ptr<ResultsDb>> in;
  std::vector<std::string> keys;
  for (const std::string& dir : shards) {
    in.push_back(ResultsDb::Open(ResultsPath(dir)));
    keys.push_back(in.back()->Meta("keys"));
    if (in.back()->Meta("base_digest") != in.front()->Meta("base_digest"))
      throw ConfigError(ResultsPath(dir), 0, "",
                        "a sweep of another base scenario than " + shards.front() + "'s: not a shard of the same campaign");
  }
  const std::string digest = in.front()->Meta("base_digest");
  const std::string out_db = ResultsPath(out);
  std::error_code ec;
  const bool made_dir = !fs::exists(out, ec), made_db = !fs::exists(out_db, ec);
  std::unique_ptr<ResultsDb> db;
  if (!made_db) {
    db = ResultsDb::Open(out_db);
    if (db->Meta("base_digest") != digest)
      throw ConfigError(out_db, 0, "", "a sweep of another base scenario than the shards'");
    keys.insert(keys.begin(), db->Meta("keys"));
  } else {
    fs::create_directories(out, ec);
    if (ec) throw ConfigError(out, 0, "", "cannot make the folder: " + ec.message());
    db = ResultsDb::Create(out_db, {{"campaign", in.front()->Meta("campaign")},
                                    {"base_digest", digest},
                                    {"keys", UnionOfKeys(keys, out_db)},
                                    {"metrics", in.front()->Meta("metrics")},
                                    {"shard", ""}});
  }
  MergeCount count;
  std::map<std::string, std::pair<RunRecord, std::string>> have;  // id: the run and where it came from
  for (RunRecord& r : db->Runs()) {
    const std::string id = r.id;
    have[id] = {std::move(r), out};
  }
  std::vector<std::pair<std::string, std::string>> folders;  // (shard, id) to copy
  db->Begin();
  try {
    for (size_t s = 0; s < in.size(); ++s)
      for (RunRecord& r : in[s]->Runs()) {
        auto it = have.find(r.id);
        if (it != have.end()) {
          if (it->second.first.overrides != r.overrides || !SameResult(it->second.first.summary, r.summary))
            throw ConfigError(ResultsPath(shards[s]), 0, "",
                              "run " + r.id + " has another result than in " + it->second.second + ": nothing merged");
          ++count.duplicates;
          continue;
        }
        db->Record(r);
        folders.emplace_back(shards[s], r.id);
        const std::string id = r.id;
        have[id] = {std::move(r), shards[s]};
        ++count.added;
      }
    for (const auto& [shard, id] : folders) {
      const fs::path from = fs::path(shard) / "runs" / id;
      if (!fs::is_directory(from, ec)) continue;
      fs::create_directories(fs::path(out) / "runs" / id, ec);
      fs::copy(from, fs::path(out) / "runs" / id, fs::copy_options::recursive | fs::copy_options::overwrite_existing, ec);
      if (ec) throw std::runtime_error("cannot copy " + from.string() + " to " + out + ": " + ec.message());
    }
    db->SetMeta("keys", UnionOfKeys(keys, out_db));
    db->Commit();
  } catch (...) {
    db->Rollback();
    db.reset();
    if (made_db) fs::remove(out_db, ec);
    if (made_dir) fs::remove_all(out, ec);
    throw;
  }
  return count;
}

}  // namespace rocelab
