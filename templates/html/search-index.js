// Search index of the instruction reference (generated from the spec).
var SEARCH_INDEX = {{ entries|tojson }};
