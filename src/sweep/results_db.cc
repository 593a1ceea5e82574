#include "sweep/results_db.h"

#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "sweep/key_figures.h"
#include "util/config_error.h"
#include "util/json_value.h"

namespace rocelab {
namespace {

// A prepared statement, finalized however the scope is left.
class Statement {
 public:
  Statement(sqlite3* db, const std::string& sql) {
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st_, nullptr) != SQLITE_OK)
      throw std::runtime_error(std::string("SQLite: ") + sqlite3_errmsg(db) + " in: " + sql);
  }
  ~Statement() { sqlite3_finalize(st_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  void Text(int i, const std::string& v) { sqlite3_bind_text(st_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT); }
  void Int(int i, int64_t v) { sqlite3_bind_int64(st_, i, v); }
  void Real(int i, double v) { sqlite3_bind_double(st_, i, v); }
  void Null(int i) { sqlite3_bind_null(st_, i); }
  // SQLITE_ROW, SQLITE_DONE, or the error code.
  int Step() { return sqlite3_step(st_); }
  std::string Column(int i) {
    const unsigned char* t = sqlite3_column_text(st_, i);
    return t ? std::string(reinterpret_cast<const char*>(t), static_cast<size_t>(sqlite3_column_bytes(st_, i))) : "";
  }
  int64_t ColumnInt(int i) { return sqlite3_column_int64(st_, i); }

 private:
  sqlite3_stmt* st_ = nullptr;
};

[[noreturn]] void SummaryError(const std::string& file, int line, const std::string& key, const std::string& what) {
  throw ConfigError(file, line, key, what);
}

}  // namespace

std::unique_ptr<ResultsDb> ResultsDb::Create(const std::string& path, const std::map<std::string, std::string>& meta) {
  struct stat st;
  if (::stat(path.c_str(), &st) == 0) throw ConfigError(path, 0, "", "exists already");
  // Made whole beside its name, then linked in: a reader watching the folder (sweep --table, a
  // second sweep) never opens a file that has no tables yet. link(), unlike rename(), refuses to
  // replace a file another sweep made meanwhile.
  const std::string building = path + ".new";
  for (const char* leftover : {"", "-wal", "-shm"}) ::unlink((building + leftover).c_str());
  { ResultsDb made(building, &meta); }  // closed: its log is checkpointed into the file
  const bool linked = ::link(building.c_str(), path.c_str()) == 0;
  const int why = errno;
  ::unlink(building.c_str());
  if (!linked) throw ConfigError(path, 0, "", why == EEXIST ? "exists already" : std::string("cannot create: ") + std::strerror(why));
  return Open(path);
}

std::unique_ptr<ResultsDb> ResultsDb::Open(const std::string& path) {
  return std::unique_ptr<ResultsDb>(new ResultsDb(path, nullptr));
}

ResultsDb::ResultsDb(const std::string& path, const std::map<std::string, std::string>* create_with) : path_(path) {
  const bool create = create_with != nullptr;
  struct stat st;
  const bool exists = ::stat(path.c_str(), &st) == 0;
  if (create && exists) throw ConfigError(path, 0, "", "exists already");
  if (!create && !exists) throw ConfigError(path, 0, "", "no such file: not a sweep's folder");
  if (!create && !S_ISREG(st.st_mode)) throw ConfigError(path, 0, "", "not a regular file");
  const int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);
  if (sqlite3_open_v2(path.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
    const std::string why = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    db_ = nullptr;
    throw ConfigError(path, 0, "", "cannot open: " + why);
  }
  sqlite3_busy_timeout(db_, 30000);
  try {
    // WAL: a commit is one append, and a reader (sweep --table) never blocks the sweep. FULL:
    // a commit is on disk before the next run is handed out.
    Exec("PRAGMA journal_mode=WAL");
    Exec("PRAGMA synchronous=FULL");
    if (create) {
      std::string columns;
      for (const KeyFigure& f : KeyFigures()) columns += std::string(", ") + f.name + (f.integer ? " INTEGER" : " REAL");
      Exec("BEGIN IMMEDIATE");
      Exec("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
      Exec("CREATE TABLE runs (id TEXT PRIMARY KEY, idx INTEGER NOT NULL, overrides TEXT NOT NULL" + columns +
           ", summary TEXT NOT NULL)");
      SetMeta("format", kSweepFormat);
      for (const auto& [key, value] : *create_with) SetMeta(key, value);
      Exec("COMMIT");
    } else if (Meta("format") != kSweepFormat) {
      throw ConfigError(path, 0, "", "not a rocelab sweep's results (its meta table says no '" + std::string(kSweepFormat) + "')");
    }
  } catch (const std::runtime_error& e) {
    // A constructor that throws runs no destructor: the connection is closed here.
    sqlite3_close(db_);
    db_ = nullptr;
    // A file that is not a database at all: bad input, not a bug.
    if (dynamic_cast<const ConfigError*>(&e)) throw;
    throw ConfigError(path, 0, "", std::string("not a rocelab sweep's results: ") + e.what());
  }
}

ResultsDb::~ResultsDb() {
  if (in_transaction_) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
  sqlite3_close(db_);
}

void ResultsDb::Fail(const std::string& what) const {
  throw std::runtime_error(path_ + ": SQLite: " + what + ": " + sqlite3_errmsg(db_));
}

void ResultsDb::Exec(const std::string& sql) const {
  char* err = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
    const std::string why = err ? err : "?";
    sqlite3_free(err);
    throw std::runtime_error(why + " (" + sql + ")");
  }
}

std::string ResultsDb::Meta(const std::string& key) const {
  Statement st(db_, "SELECT value FROM meta WHERE key = ?");
  st.Text(1, key);
  return st.Step() == SQLITE_ROW ? st.Column(0) : "";
}

void ResultsDb::SetMeta(const std::string& key, const std::string& value) {
  Statement st(db_, "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)");
  st.Text(1, key);
  st.Text(2, value);
  if (st.Step() != SQLITE_DONE) Fail("cannot write meta " + key);
}

std::set<std::string> ResultsDb::Ids() const {
  std::set<std::string> ids;
  Statement st(db_, "SELECT id FROM runs");
  while (st.Step() == SQLITE_ROW) ids.insert(st.Column(0));
  return ids;
}

size_t ResultsDb::Count() const {
  Statement st(db_, "SELECT count(*) FROM runs");
  st.Step();
  return static_cast<size_t>(st.ColumnInt(0));
}

bool ResultsDb::Record(const RunRecord& r) {
  const JsonDocument summary = ParseJsonDocument(r.summary, "summary of run " + r.id, SummaryError);
  std::string names = "id, idx, overrides, summary", marks = "?, ?, ?, ?";
  for (const KeyFigure& f : KeyFigures()) {
    names += std::string(", ") + f.name;
    marks += ", ?";
  }
  Statement st(db_, "INSERT OR IGNORE INTO runs (" + names + ") VALUES (" + marks + ")");
  st.Text(1, r.id);
  st.Int(2, r.idx);
  st.Text(3, r.overrides);
  st.Text(4, r.summary);
  int col = 5;
  for (const KeyFigure& f : KeyFigures()) {
    const JsonDocument* v = MetricValue(summary, f.name, r.id);
    if (!v || !v->is_number()) st.Null(col);
    else if (f.integer && v->is_number_integer()) st.Int(col, v->get<int64_t>());
    else st.Real(col, v->get<double>());
    ++col;
  }
  const bool own = !in_transaction_;
  if (own) Exec("BEGIN IMMEDIATE");
  const int rc = st.Step();
  if (rc != SQLITE_DONE) {
    if (own) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    Fail("cannot record run " + r.id);
  }
  const bool added = sqlite3_changes(db_) == 1;
  if (own) Exec("COMMIT");
  return added;
}

std::vector<RunRecord> ResultsDb::Runs() const {
  std::vector<RunRecord> runs;
  Statement st(db_, "SELECT id, idx, overrides, summary FROM runs ORDER BY idx, id");
  while (st.Step() == SQLITE_ROW) runs.push_back({st.Column(0), st.ColumnInt(1), st.Column(2), st.Column(3)});
  return runs;
}

void ResultsDb::Begin() {
  Exec("BEGIN IMMEDIATE");
  in_transaction_ = true;
}

void ResultsDb::Commit() {
  Exec("COMMIT");
  in_transaction_ = false;
}

void ResultsDb::Rollback() {
  Exec("ROLLBACK");
  in_transaction_ = false;
}

}  // namespace rocelab
