export * from "../gen/omnia/runtime/v1/runtime_pb.js";
