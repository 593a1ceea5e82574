// DIR/results.sqlite: what a sweep has finished, a row a run. Each run is
// committed in its own transaction as it finishes (write-ahead log, full sync),
// so killing the sweep, even with SIGKILL, loses no finished run; the run's id
// is the table's primary key, so no run is ever recorded twice.
//
//   runs(id TEXT PRIMARY KEY, idx INTEGER, overrides TEXT (JSON),
//        <each key figure, key_figures.h>, summary TEXT (the whole summary.json))
//   meta(key TEXT PRIMARY KEY, value TEXT): format, campaign, base_digest, keys, metrics, shard
//
// Any SQLite client reads it: sqlite3 DIR/results.sqlite 'select overrides, fct_p99_slowdown from runs'.
#ifndef ROCELAB_SWEEP_RESULTS_DB_H_
#define ROCELAB_SWEEP_RESULTS_DB_H_

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

struct sqlite3;

namespace rocelab {

// What the meta table says of the sweep.
constexpr const char* kSweepFormat = "rocelab-sweep 1";

struct RunRecord {
  std::string id;
  int64_t idx = 0;
  std::string overrides;  // a JSON object
  std::string summary;    // summary.json as the run wrote it
};

class ResultsDb {
 public:
  // Makes a new database at `path` (the file must not exist) with `meta`, in one transaction.
  static std::unique_ptr<ResultsDb> Create(const std::string& path, const std::map<std::string, std::string>& meta);
  // Opens a sweep's database. Throws ConfigError naming the file when it is none.
  static std::unique_ptr<ResultsDb> Open(const std::string& path);
  ~ResultsDb();
  ResultsDb(const ResultsDb&) = delete;
  ResultsDb& operator=(const ResultsDb&) = delete;

  const std::string& path() const { return path_; }
  std::string Meta(const std::string& key) const;  // "" if not set
  void SetMeta(const std::string& key, const std::string& value);

  std::set<std::string> Ids() const;
  // One transaction. False, recording nothing, when the id is there already.
  bool Record(const RunRecord& r);
  // Every run, in the campaign's order.
  std::vector<RunRecord> Runs() const;
  size_t Count() const;

  // Several records in one transaction (a merge: all or nothing).
  void Begin();
  void Commit();
  void Rollback();

 private:
  ResultsDb(const std::string& path, const std::map<std::string, std::string>* create_with);
  void Exec(const std::string& sql) const;
  [[noreturn]] void Fail(const std::string& what) const;

  std::string path_;
  sqlite3* db_ = nullptr;
  bool in_transaction_ = false;
};

}  // namespace rocelab

#endif  // ROCELAB_SWEEP_RESULTS_DB_H_
