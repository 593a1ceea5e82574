#include "util/units.h"

#include <gtest/gtest.h>

namespace rocelab {

TEST(Units, SizesArePowersOf1024) {
  uint64_t b;
  std::string err;
  ASSERT_TRUE(ParseSize("2MB", &b, &err));
  EXPECT_EQ(b, 2097152u);
  ASSERT_TRUE(ParseSize("4KB", &b, &err));
  EXPECT_EQ(b, 4096u);
  ASSERT_TRUE(ParseSize("1.5KiB", &b, &err));
  EXPECT_EQ(b, 1536u);
  ASSERT_TRUE(ParseSize("32GB", &b, &err));
  EXPECT_EQ(b, 32ull << 30);
  EXPECT_FALSE(ParseSize("32", &b, &err));
  EXPECT_NE(err.find("no unit"), std::string::npos);
  EXPECT_FALSE(ParseSize("3 furlongs", &b, &err));
  EXPECT_FALSE(ParseSize("-1KB", &b, &err));
  EXPECT_FALSE(ParseSize("0.3B", &b, &err));
}

TEST(Units, RatesArePowersOf1000) {
  uint64_t r;
  std::string err;
  ASSERT_TRUE(ParseRate("100G", &r, &err));
  EXPECT_EQ(r, 100000000000ull);
  ASSERT_TRUE(ParseRate("25Gbps", &r, &err));
  EXPECT_EQ(r, 25000000000ull);
  ASSERT_TRUE(ParseRate("40Mbps", &r, &err));
  EXPECT_EQ(r, 40000000ull);
  ASSERT_TRUE(ParseRate("1.6T", &r, &err));
  EXPECT_EQ(r, 1600000000000ull);
  EXPECT_FALSE(ParseRate("100", &r, &err));
  EXPECT_FALSE(ParseRate("0G", &r, &err));
}

TEST(Units, Times) {
  Time t;
  std::string err;
  ASSERT_TRUE(ParseTime("1us", &t, &err));
  EXPECT_EQ(t, kMicrosecond);
  ASSERT_TRUE(ParseTime("2.5ms", &t, &err));
  EXPECT_EQ(t, 2500 * kMicrosecond);
  ASSERT_TRUE(ParseTime("300ns", &t, &err));
  EXPECT_EQ(t, 300 * kNanosecond);
  EXPECT_FALSE(ParseTime("5", &t, &err));
  // Minutes, for an operator's delay (recovery.delay); "m" stays a length, never a time.
  ASSERT_TRUE(ParseTime("5min", &t, &err)) << err;
  EXPECT_EQ(t, 300 * kSecond);
  EXPECT_FALSE(ParseTime("5m", &t, &err));
  // Hours, for a job's checkpoint interval (cost.checkpoint), up to 30 days; each setting has
  // its own range (recovery.delay: an hour at most).
  ASSERT_TRUE(ParseTime("61min", &t, &err)) << err;
  EXPECT_EQ(t, 3660 * kSecond);
  EXPECT_FALSE(ParseTime("43201min", &t, &err)) << "past the 720 h limit";
}

TEST(Units, SerializationTimeIsExactAtCommonSpeeds) {
  EXPECT_EQ(SerializationTime(4178, 100000000000ull), 4178 * 80);
  EXPECT_EQ(SerializationTime(84, 400000000000ull), 84 * 20);
  EXPECT_EQ(SerializationTime(1, 3000000000ull), 2667);  // rounded up
}

// A blank (space or tab) between number and unit, or around the value, reads the same
// everywhere: "1 us" is 1us for every quantity, never accepted by one key and refused by another.
TEST(Units, BlanksBetweenAndAroundReadTheSame) {
  std::string err;
  for (const char* t : {"1 us", "1\tus", " 1us", "1us ", "1  us", "\t1 us\t"}) {
    Time v = 0;
    EXPECT_TRUE(ParseTime(t, &v, &err)) << "'" << t << "': " << err;
    EXPECT_EQ(v, kMicrosecond) << t;
  }
  for (const char* t : {"1 MB", "1\tMB", " 1MB ", "1 MiB"}) {
    uint64_t v = 0;
    EXPECT_TRUE(ParseSize(t, &v, &err)) << "'" << t << "': " << err;
    EXPECT_EQ(v, 1u << 20) << t;
  }
  for (const char* t : {"100 G", "100\tGbps", " 100G "}) {
    uint64_t v = 0;
    EXPECT_TRUE(ParseRate(t, &v, &err)) << "'" << t << "': " << err;
    EXPECT_EQ(v, 100000000000ull) << t;
  }
  for (const char* t : {"5 m", "0.005 km", " 5m\t"}) {
    double v = 0;
    EXPECT_TRUE(ParseLength(t, &v, &err)) << "'" << t << "': " << err;
    EXPECT_DOUBLE_EQ(v, 5) << t;
  }
  double x = 0;
  int64_t i = 0;
  EXPECT_TRUE(ParseNumber(" 0.5 ", &x, &err)) << err;
  EXPECT_TRUE(ParseInteger("\t7", &i, &err)) << err;
  EXPECT_EQ(i, 7);
  Time t;
  EXPECT_FALSE(ParseTime("1 u s", &t, &err));  // a blank inside the unit is not a unit
  EXPECT_FALSE(ParseTime(" ", &t, &err));
}

// The parsers' own limits are written in units they read back.
TEST(Units, RangeMessagesUseUnitsTheParsersTake) {
  std::string err;
  uint64_t b;
  Time t;
  double m;
  EXPECT_FALSE(ParseSize("2000000GB", &b, &err));
  EXPECT_NE(err.find("(0B to 1048576GB)"), std::string::npos) << err;
  EXPECT_TRUE(ParseSize("1048576GB", &b, &err)) << err;
  EXPECT_FALSE(ParseRate("20T", &b, &err));
  EXPECT_NE(err.find("(1bps to 10T)"), std::string::npos) << err;
  EXPECT_TRUE(ParseRate("10T", &b, &err) && ParseRate("1bps", &b, &err)) << err;
  EXPECT_FALSE(ParseTime("721h", &t, &err));
  EXPECT_NE(err.find("(0s to 720h)"), std::string::npos) << err;
  EXPECT_TRUE(ParseTime("720h", &t, &err)) << err;
  EXPECT_EQ(t, 720 * 3600 * kSecond);
  EXPECT_TRUE(ParseTime("4h", &t, &err)) << err;
  EXPECT_EQ(t, 4 * 3600 * kSecond);
  EXPECT_FALSE(ParseLength("101km", &m, &err));
  EXPECT_NE(err.find("(0m to 100km)"), std::string::npos) << err;
  EXPECT_TRUE(ParseLength("100km", &m, &err)) << err;
}

}  // namespace rocelab
