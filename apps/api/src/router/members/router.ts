import { resource } from "../../trpc.ts";
import { inviteMember } from "./invite-member.ts";
import { listMembers } from "./list-members.ts";
import { removeMember } from "./remove-member.ts";
import { updateMember } from "./update-member.ts";

export const membersRouter = resource(inviteMember, listMembers, removeMember, updateMember);
