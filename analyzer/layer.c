/* Placeholder so the analyzer layer library is never empty; removed once the layer has code. */
typedef int lineup_analyzer_placeholder;
