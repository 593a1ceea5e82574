// A streaming JSON writer with stable formatting: two-space indentation,
// keys in the order written, doubles with a fixed number of decimals, so the
// same values always produce the same bytes.
#ifndef ROCELAB_UTIL_JSON_WRITER_H_
#define ROCELAB_UTIL_JSON_WRITER_H_

#include <cstdint>
#include <string>
#include <vector>

namespace rocelab {

class JsonWriter {
 public:
  JsonWriter& BeginObject(const char* key = nullptr);
  JsonWriter& EndObject();
  JsonWriter& BeginArray(const char* key = nullptr);
  JsonWriter& EndArray();
  JsonWriter& Key(const std::string& key);
  JsonWriter& String(const std::string& key, const std::string& v);
  JsonWriter& Int(const std::string& key, int64_t v);
  JsonWriter& Uint(const std::string& key, uint64_t v);
  JsonWriter& Double(const std::string& key, double v, int decimals = 6);
  JsonWriter& Bool(const std::string& key, bool v);
  JsonWriter& Null(const std::string& key);
  // A value that is already JSON text (another writer's output).
  JsonWriter& Raw(const std::string& key, const std::string& json);
  // Values inside arrays.
  JsonWriter& StringValue(const std::string& v);
  JsonWriter& UintValue(uint64_t v);

  const std::string& str() const { return out_; }
  static std::string Escape(const std::string& s);

 private:
  void Prefix(const char* key);
  void Prefix(const std::string& key) { Prefix(key.c_str()); }
  void Newline();
  std::string out_;
  std::vector<bool> first_;  // per open container: nothing written yet
};

}  // namespace rocelab

#endif  // ROCELAB_UTIL_JSON_WRITER_H_
