import { describe, expect, it } from "vitest";

import { StaffRoleSchema } from "./schemas/staff";
import { staffHome } from "./staff-home";

describe("staffHome", () => {
  it("sends each role to its own home: admins to the exams, proctors to proctoring, graders to grading", () => {
    expect(staffHome("admin")).toBe("/admin");
    expect(staffHome("proctor")).toBe("/proctor");
    expect(staffHome("grader")).toBe("/grading");
  });

  it("has a distinct home for every role the schema knows", () => {
    const homes = StaffRoleSchema.options.map(staffHome);
    expect(new Set(homes).size).toBe(StaffRoleSchema.options.length);
  });
});
